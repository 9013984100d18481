// A console process that syncs one profile and prints a line per progress report; the kill tests
// kill it with SIGKILL at random moments. Usage: sync-child.ts DATA_DIR PROFILE_ID [full]
import { startCore } from '../../electron/core/console-core.js';

const [dataDir, profileId, mode] = process.argv.slice(2) as [string, string, string | undefined];
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
const summary = await core.sync(mode === 'full' ? { full: true } : {});
process.stdout.write(`DONE ${JSON.stringify(summary)}\n`);
await core.close();
