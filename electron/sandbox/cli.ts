import { Command, InvalidArgumentError } from 'commander';
import { SANDBOX_DEFAULTS, startSandbox } from './server.js';

/** `npm run sandbox -- --port N --seed S --consents N`: the sandbox on its own. */
function integer(min: number) {
  return (value: string) => {
    if (!/^\d+$/.test(value) || Number(value) < min) throw new InvalidArgumentError(`expected an integer ≥ ${min}`);
    return Number(value);
  };
}

const program = new Command()
  .name('sandbox')
  .description('The CDR intermediary sandbox: deterministic consents behind OAuth2 client credentials, on 127.0.0.1.')
  .option('--port <n>', 'port to listen on (0 picks a free one)', integer(0), 0)
  .option('--seed <s>', 'seed of the generated data', integer(0), SANDBOX_DEFAULTS.seed)
  .option('--consents <n>', 'number of consents', integer(0), SANDBOX_DEFAULTS.consents)
  .option('--client-id <id>', 'the OAuth2 client id it accepts', SANDBOX_DEFAULTS.clientId)
  .option('--client-secret <secret>', 'the OAuth2 client secret it accepts', SANDBOX_DEFAULTS.clientSecret)
  .parse();

const opts = program.opts<{ port: number; seed: number; consents: number; clientId: string; clientSecret: string }>();
const sandbox = await startSandbox(opts).catch((error: Error) => {
  console.error(`Sandbox could not start: ${error.message}`);
  process.exit(1);
});
console.log(`Sandbox listening on ${sandbox.url}`);
let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  void sandbox.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
