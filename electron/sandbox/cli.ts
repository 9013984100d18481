import { Command, InvalidArgumentError } from 'commander';
import { readFileSync } from 'node:fs';
import type { JWK } from 'jose';
import { FaultSpecError, parseFaultSpec } from './faults.js';
import { SANDBOX_DEFAULTS, startSandbox, type SandboxOptions } from './server.js';
import { StateFileError } from './world.js';
import { exitTwoOnUsageError } from '../cli/usage.js';

/** `npm run sandbox -- --port N --seed S --consents N …`: the intermediary sandbox on its own. */
function integer(min: number) {
  return (value: string) => {
    if (!/^\d+$/.test(value) || Number(value) < min) throw new InvalidArgumentError(`expected an integer ≥ ${min}`);
    return Number(value);
  };
}

function faultSpec(value: string): string {
  try {
    parseFaultSpec(value);
  } catch (error) {
    if (error instanceof FaultSpecError) throw new InvalidArgumentError(error.message);
    throw error;
  }
  return value;
}

function jwks(file: string): JWK[] {
  let json: { keys?: JWK[] } & JWK;
  try {
    json = JSON.parse(readFileSync(file, 'utf8')) as typeof json;
  } catch (error) {
    throw new InvalidArgumentError(`cannot read a JWK from ${file}: ${(error as Error).message}`);
  }
  const keys = json.keys ?? [json];
  if (!keys.every((k) => typeof k.kty === 'string')) throw new InvalidArgumentError(`${file} holds no public JWK`);
  return keys;
}

const program = exitTwoOnUsageError(new Command())
  .name('sandbox')
  .description(
    'The CDR intermediary sandbox: the Consent API with deterministic seeded data, behind OAuth2 client credentials, on 127.0.0.1.',
  )
  .option('--port <n>', 'port to listen on (0 picks a free one)', integer(0), 0)
  .option('--seed <s>', 'seed of the generated data', integer(0), SANDBOX_DEFAULTS.seed)
  .option('--consents <n>', 'number of seeded consents', integer(0), SANDBOX_DEFAULTS.consents)
  .option('--events-per-consent <n>', 'exactly N events per consent (default: each consent’s own life)', integer(1))
  .option(
    '--transactions-per-account <n>',
    'Data API transactions per account on average, skewed: most fewer, a few up to 3×N (default: 10–40 each)',
    integer(1),
  )
  .option('--largest-consent-transactions <n>', 'with --transactions-per-account: N transactions in one consent', integer(1))
  .option('--legacy-holders <k>', 'the first K data holders serve Data API 1.x shapes', integer(0), 0)
  .option('--client-id <id>', 'the OAuth2 client id it accepts', SANDBOX_DEFAULTS.clientId)
  .option('--client-secret <secret>', 'the OAuth2 client secret it accepts', SANDBOX_DEFAULTS.clientSecret)
  .option('--client-jwk <file>', 'a public JWK (or JWKS) registered for private_key_jwt', jwks)
  .option('--webhook <url>', 'POST consent lifecycle events caused through the API to this URL')
  .option('--faults <spec>', 'inject faults, e.g. "429=2:n3:/consents/v2,latency=250:p0.5" (see electron/sandbox/faults.ts)', faultSpec)
  .option('--state <file>', 'keep API changes (revocations, new consents, the clock…) in this file across restarts')
  .parse();

const o = program.opts<{
  port: number;
  seed: number;
  consents: number;
  eventsPerConsent?: number;
  transactionsPerAccount?: number;
  largestConsentTransactions?: number;
  legacyHolders: number;
  clientId: string;
  clientSecret: string;
  clientJwk?: JWK[];
  webhook?: string;
  faults?: string;
  state?: string;
}>();
const options: SandboxOptions = {
  port: o.port,
  seed: o.seed,
  consents: o.consents,
  legacyHolders: o.legacyHolders,
  clientId: o.clientId,
  clientSecret: o.clientSecret,
  ...(o.eventsPerConsent !== undefined ? { eventsPerConsent: o.eventsPerConsent } : {}),
  ...(o.transactionsPerAccount !== undefined ? { transactionsPerAccount: o.transactionsPerAccount } : {}),
  ...(o.largestConsentTransactions !== undefined ? { largestConsentTransactions: o.largestConsentTransactions } : {}),
  ...(o.clientJwk ? { clientJwks: o.clientJwk } : {}),
  ...(o.webhook ? { webhookUrl: o.webhook } : {}),
  ...(o.faults ? { faults: o.faults } : {}),
  ...(o.state ? { stateFile: o.state } : {}),
};
const sandbox = await startSandbox(options).catch((error: Error) => {
  console.error(`Sandbox could not start: ${error instanceof StateFileError ? error.message : error.message}`);
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
