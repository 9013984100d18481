// A team server's core in a test helper process: its pool, its registration (a heartbeat every
// 500 ms) and the core on the team store, over the data directory's profile (a remote one, with the
// sandbox's secret).
import { startCore, type Core } from '../../electron/core/console-core.js';
import { PgDb } from '../../electron/core/postgres/db.js';
import { registerInstance, teamStoreOpener, thisInstance, type TeamInstance } from '../../electron/core/postgres/team-store.js';

export async function startTeamCore(
  dataDir: string,
  url: string,
  opts: { syncEveryMinutes?: number } = {},
): Promise<{ core: Core; db: PgDb; me: TeamInstance }> {
  const db = new PgDb(url, { max: 6 });
  const me = thisInstance();
  await registerInstance(db, me, null, 500);
  const core = await startCore({
    dataDir,
    host: 'team',
    appVersion: 'test',
    log: { info() {}, error() {} },
    clientSecret: 'sandbox-secret',
    store: teamStoreOpener(db, me),
    ...(opts.syncEveryMinutes !== undefined ? { syncEveryMinutes: opts.syncEveryMinutes } : {}),
  });
  return { core, db, me };
}
