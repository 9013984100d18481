// A team server's core in its own process, on a team store (PostgreSQL) and a remote profile, for
// the tests that kill servers: it prints one line per sync progress report, "SYNCED <summary>"
// when a sync finishes, "DATABASE <state>" and "STATUS <app:status>" when its database goes away or
// comes back, and syncs on a schedule (TICK_MS) or once at start ("now").
// Usage: team-child.ts DATA_DIR DATABASE_URL TICK_MS [now]
import { startTeamCore } from './team-core.js';

const [dataDir, url, tickMs, now] = process.argv.slice(2) as [string, string, string, string | undefined];
const { core, me } = await startTeamCore(dataDir, url, { syncEveryMinutes: Number(tickMs) / 60_000 });
core.events.subscribe((event, payload) => {
  if (event === 'sync:progress') process.stdout.write(`${JSON.stringify(payload)}\n`);
  if (event === 'team:database') {
    process.stdout.write(`DATABASE ${JSON.stringify(payload)}\n`);
    // What its consoles' status bars read then (it answers while the database is away).
    void core.router.handle('app:status', {}, true).then((r) => process.stdout.write(`STATUS ${JSON.stringify(r)}\n`));
  }
});
// A team server lives while its HTTP server listens; this process has none, and its timers are unref'd:
// without this it would end when its database connections do (PostgreSQL restarted).
setInterval(() => undefined, 3_600_000);
process.stdout.write(`READY ${me.id}\n`);
const report = (p: Promise<unknown>) =>
  p.then(
    (s) => process.stdout.write(`SYNCED ${JSON.stringify(s)}\n`),
    (e: Error) => process.stdout.write(`REFUSED ${e.message}\n`),
  );
if (now) void report(core.sync({ data: false }));
// Scheduled syncs report through the bus only; say when one ended well.
core.events.subscribe((event, payload) => {
  if (
    event === 'sync:progress' &&
    (payload as { state: string }).state === 'finished' &&
    (payload as { phase: string }).phase === 'data-holders'
  )
    process.stdout.write('SYNCED scheduled\n');
});
