// A console process that syncs one profile and prints a line per stored page; the resume test
// kills it with SIGKILL at a random moment. Usage: sync-child.ts DATA_DIR PROFILE_ID
import { startCore } from '../../electron/core/console-core.js';

const [dataDir, profileId] = process.argv.slice(2) as [string, string];
const core = await startCore({
  dataDir,
  profileId,
  host: 'browser',
  appVersion: 'test',
  log: { info() {}, error() {} },
  clientSecret: 'sandbox-secret',
});
core.events.subscribe((event, payload) => {
  if (event === 'sync:progress') process.stdout.write(`${JSON.stringify(payload)}\n`);
});
await core.sync();
process.stdout.write('DONE\n');
await core.close();
