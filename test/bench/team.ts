import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Consent, ConsentEvent } from '../../shared/schemas/consent.js';
import { ConsentClient } from '../../electron/core/api/consent-client.js';
import { createClientCredentialsTokenSource } from '../../electron/core/auth/token-source.js';
import { maskMessage } from '../../electron/core/events/mask.js';
import { WEBHOOK_FAILURES } from '../../electron/core/events/port.js';
import { isoMillis } from '../../electron/core/events/instant.js';
import { gramsText, searchVector } from '../../electron/core/postgres/consents-search.js';
import { copyLine, PgDb } from '../../electron/core/postgres/db.js';
import { startEmbeddedPostgres } from '../../electron/core/postgres/embedded.js';
import { migrate } from '../../electron/core/postgres/migrations.js';
import { pgSyncEngine, thisInstance } from '../../electron/core/postgres/team-store.js';
import { contentId } from '../../electron/core/sync/event-id.js';
import type { SyncJob } from '../../electron/core/sync/sync-job.js';
import type { SyncMessage } from '../../electron/core/sync/port.js';
import { mutate } from '../helpers/mutate.js';
import { root, startSandboxProcess } from './procs.js';
import { fmtN, rowOf, spread, writeReport, type RecordRow, type Row } from './stats.js';
import { readersBench } from './team-readers.js';
import { tempDir } from './temp.js';

/**
 * `npm run bench:team -- [--consents N] [--events-per-consent K] [--runs R] [--smoke] [--out FILE]` (and the readers' options below):
 * the team server's sync into PostgreSQL, each figure beside a baseline measured in the same run,
 * on the same rows, on the same (embedded, temporary) PostgreSQL server:
 *
 * - the first sync (pgSyncEngine: consents, events, reference; no Data API records), in a process of
 *   its own (its peak RSS is the syncing server's), against a COPY-only load of the same rows (fetched
 *   once beforehand, kept in a temporary file) into the same tables of a fresh database (same schema,
 *   same indexes), with the same derived values computed (payload hash, search vector, versions, event
 *   ids, instants, failure keys): the COPY side does no less work per row than the sync must;
 * - against a naive client: one INSERT per row, autocommit (a consent is its row and its version),
 *   over a sample of rows into a fresh database; its rate is extrapolated to the whole load;
 * - an incremental sync after the intermediary changed 1% of the consents and got 1% new ones,
 *   against the first sync's time;
 * - the peak RSS of the syncing process, beside an idle process with the same modules loaded;
 * - the readers (team-readers.ts: `--readers C --readers-seconds S --think-ms T --revokes R --small-consents M`):
 *   C consoles (20) reading a team server at once over its WebSocket, p50/p95 per kind of read,
 *   beside a solo browser host (SQLite) on the same data, each console at a person's pace (its next
 *   request T ms after its answer on average; 500) and again back to back (a stress load); a revoke in one console to REVOKED in a
 *   console of another team server (R revokes, p95); the serving server's peak and steady RSS beside
 *   the same at M consents (a tenth, at most 10,000). They need the build (`npm run bench:team` builds).
 *
 * Prints a table and writes FILE (default test-results/bench-team.json: rows {name, value, unit,
 * baseline, ratio, target, met, …} as the main benchmark's) and the same table as .md beside it.
 * Not a test: nothing here asserts a time. `--smoke`: a few hundred rows, 3 consoles for 2 s, 5 revokes, under a minute.
 */
const self = fileURLToPath(import.meta.url);

// ---- the measured process: one sync, or nothing (the idle baseline)
if (process.argv[2] === '--child') {
  const args = JSON.parse(process.argv[3]!) as { mode: 'full' | 'incremental' | 'idle'; db: string; url: string };
  if (args.mode === 'idle') {
    console.log(JSON.stringify({ peakRssMB: process.resourceUsage().maxRSS / 1024 }));
    process.exit(0);
  }
  const db = new PgDb(args.db, { max: 4, applicationName: 'cdr-bench-sync' });
  const target: Pick<SyncJob, 'tokens' | 'consentApiBaseUrl' | 'dataApiBaseUrl'> = {
    tokens: tokenOptions(args.url),
    consentApiBaseUrl: args.url,
    dataApiBaseUrl: args.url,
  };
  const marks: Record<string, number> = {};
  const t0 = performance.now();
  const engine = pgSyncEngine(db, target, thisInstance());
  const { result } = engine.run(args.mode === 'full' ? { full: true, data: false } : { data: false }, (m: SyncMessage) => {
    if (m.type !== 'progress') return;
    const p = m.progress;
    marks[`${p.phase}:start`] ??= performance.now() - t0;
    if (p.state !== 'running') marks[`${p.phase}:end`] = performance.now() - t0;
  });
  const summary = await result;
  const totalMs = performance.now() - t0;
  await engine.close();
  await db.close();
  console.log(JSON.stringify({ summary, totalMs, marks, peakRssMB: process.resourceUsage().maxRSS / 1024 }));
  process.exit(0);
}

function tokenOptions(url: string): SyncJob['tokens'] {
  return {
    tokenUrl: `${url}/oauth2/token`,
    clientId: 'sandbox-client',
    clientSecret: 'sandbox-secret',
    method: 'client_secret_basic',
    scopes: [],
  };
}

const { values: opt } = parseArgs({
  options: {
    consents: { type: 'string', default: '5000' },
    'events-per-consent': { type: 'string', default: '10' },
    runs: { type: 'string', default: '2' },
    'naive-rows': { type: 'string', default: '2000' },
    readers: { type: 'string', default: '20' },
    'readers-seconds': { type: 'string', default: '20' },
    'think-ms': { type: 'string', default: '500' },
    revokes: { type: 'string', default: '30' },
    'small-consents': { type: 'string' },
    smoke: { type: 'boolean', default: false },
    out: { type: 'string', default: join(root, 'test-results/bench-team.json') },
  },
});
const smoke = opt.smoke;
const N = smoke ? 300 : Number(opt.consents);
const E = smoke ? 2 : Number(opt['events-per-consent']);
const RUNS = smoke ? 1 : Number(opt.runs);
const NAIVE_ROWS = smoke ? 100 : Number(opt['naive-rows']);
const READERS = smoke ? 3 : Number(opt.readers);
const READ_SECONDS = smoke ? 2 : Number(opt['readers-seconds']);
const REVOKES = smoke ? 5 : Number(opt.revokes);
const SMALL = Number(opt['small-consents'] ?? Math.max(10, Math.min(10_000, Math.round(N / 10))));
const perSecond = (n: number, ms: number) => (n * 1000) / ms;

const rows: Row[] = [];
const row: RecordRow = (...a) => void rows.push(rowOf(...a));

type SyncResult = {
  summary: { consents: { fetched: number; new: number; changed: number }; events: { fetched: number; new: number } };
  totalMs: number;
  marks: Record<string, number>;
  peakRssMB: number;
};

function runChild<T>(args: Record<string, unknown>): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', self, '--child', JSON.stringify(args)], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => {
      const last = out.trim().split('\n').at(-1) ?? '';
      if (code !== 0) return reject(new Error(`the sync process exited with ${code}: ${out.slice(-2000)}`));
      try {
        resolve(JSON.parse(last) as T);
      } catch {
        reject(new Error(`the sync process printed no result: ${out.slice(-2000)}`));
      }
    });
  });
}

// ---- the server, the databases, the sandbox
const work = tempDir();
console.log(`Team benchmark: ${fmtN(N)} consents × ${E} events, ${RUNS} run(s); embedded PostgreSQL; sandbox in its own process`);
const server = await startEmbeddedPostgres({ dir: join(work, 'pg'), temporary: true });
const admin = new pg.Client({ connectionString: server.url });
await admin.connect();
const dbUrl = (name: string) => server.url.replace(/\/postgres$/, `/${name}`);
async function freshDb(name: string): Promise<PgDb> {
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  const db = new PgDb(dbUrl(name), { max: 2 });
  await migrate(db);
  return db;
}
const sandbox = await startSandboxProcess(N, E);

async function sandboxToken(): Promise<string> {
  const res = await fetch(`${sandbox.url}/oauth2/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from('sandbox-client:sandbox-secret').toString('base64')}` },
    body: new URLSearchParams({ grant_type: 'client_credentials' }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}
/** The sandbox rebuilds its index of events after changes: built before a timed sync (a real intermediary keeps one). */
async function warmEvents(): Promise<void> {
  const token = await sandboxToken();
  await fetch(`${sandbox.url}/consents/events?page=1&page-size=1`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.text());
}

// ---- the rows, fetched once (NDJSON files): the baselines load exactly what the sync stores
const consentsFile = join(work, 'consents.ndjson');
const eventsFile = join(work, 'events.ndjson');
async function fetchOnce(): Promise<{ consents: number; events: number; consentsMs: number; eventsMs: number }> {
  const client = new ConsentClient({ baseUrl: sandbox.url, tokens: createClientCredentialsTokenSource(tokenOptions(sandbox.url)) });
  const write = async (file: string, pages: AsyncIterable<readonly unknown[]>) => {
    const out: WriteStream = createWriteStream(file);
    let n = 0;
    for await (const items of pages) {
      for (const item of items) out.write(`${JSON.stringify(item)}\n`);
      n += items.length;
    }
    await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
    return n;
  };
  let t = performance.now();
  const consents = await write(
    consentsFile,
    (async function* () {
      for await (const p of client.listConsentPages({ pageSize: 1000 })) yield p.consents;
    })(),
  );
  const consentsMs = performance.now() - t;
  t = performance.now();
  const events = await write(
    eventsFile,
    (async function* () {
      for await (const p of client.listEventPages({ pageSize: 1000 })) yield p.items;
    })(),
  );
  return { consents, events, consentsMs, eventsMs: performance.now() - t };
}

async function* lines<T>(file: string, limit = Infinity): AsyncGenerator<T> {
  let n = 0;
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    if (!line) continue;
    if (n++ >= limit) return;
    yield JSON.parse(line) as T;
  }
}

// ---- the derived values the sync stores (postgres/consents.ts storeConsents, events.ts storeEvents)
const FAILURES: readonly string[] = WEBHOOK_FAILURES;
function consentValues(c: Consent, syncedAt: string) {
  const json = JSON.stringify(c);
  const hash = createHash('sha1').update(json).digest('hex');
  const version = typeof c.version === 'number' && Number.isInteger(c.version) && Math.abs(c.version) < 1e9 ? c.version : null;
  return {
    consent: [c.consentId, json, hash, syncedAt, searchVector(c), gramsText(c)],
    version: [c.consentId, version, hash, json, syncedAt],
  };
}
const CONSENT_COLUMNS = ['consent_id', 'payload', 'payload_hash', 'synced_at', 'search', 'grams'];
const VERSION_COLUMNS = ['consent_id', 'version', 'hash', 'payload', 'seen_at'];
function eventValues(e: ConsentEvent) {
  const ms = isoMillis(e.timestamp);
  const detail =
    e.eventDetail === undefined || e.eventDetail === null
      ? null
      : typeof e.eventDetail === 'string'
        ? e.eventDetail
        : JSON.stringify(e.eventDetail);
  return [
    e.eventId ?? contentId(e),
    e.consentId,
    e.eventType,
    new Date(Number.isFinite(ms) ? ms : 0).toISOString(),
    detail,
    FAILURES.includes(e.eventType) ? maskMessage((e.eventDetail as string | null | undefined) ?? null) : null,
    JSON.stringify(e),
  ];
}
const EVENT_COLUMNS = ['event_id', 'consent_id', 'event_type', 'at', 'event_detail', 'detail_key', 'payload'];

/** COPY … FROM STDIN of async rows on one client. */
async function copyAsync(client: pg.PoolClient, table: string, columns: string[], source: AsyncIterable<readonly unknown[]>) {
  const stream = client.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN`));
  await pipeline(
    Readable.from(
      (async function* () {
        for await (const r of source) yield copyLine(r);
      })(),
    ),
    stream,
  );
}

/** The COPY-only load: consents (and their versions) then events, into a fresh database with the same schema and indexes. */
async function copyLoad(name: string): Promise<{ consentsMs: number; eventsMs: number }> {
  const db = await freshDb(name);
  const client = await db.pool.connect();
  const syncedAt = new Date().toISOString();
  try {
    let t = performance.now();
    await client.query('BEGIN');
    await copyAsync(
      client,
      'consents',
      CONSENT_COLUMNS,
      (async function* () {
        for await (const c of lines<Consent>(consentsFile)) yield consentValues(c, syncedAt).consent;
      })(),
    );
    await copyAsync(
      client,
      'consent_versions',
      VERSION_COLUMNS,
      (async function* () {
        for await (const c of lines<Consent>(consentsFile)) yield consentValues(c, syncedAt).version;
      })(),
    );
    await client.query('COMMIT');
    const consentsMs = performance.now() - t;
    t = performance.now();
    await client.query('BEGIN');
    await copyAsync(
      client,
      'events',
      EVENT_COLUMNS,
      (async function* () {
        for await (const e of lines<ConsentEvent>(eventsFile)) yield eventValues(e);
      })(),
    );
    await client.query('COMMIT');
    return { consentsMs, eventsMs: performance.now() - t };
  } finally {
    client.release();
    await db.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

/** The naive client: one INSERT per row, autocommit, over the first `sample` rows of each. */
async function naiveLoad(name: string, sample: number): Promise<Record<'consents' | 'events', { rows: number; ms: number }>> {
  const db = await freshDb(name);
  const syncedAt = new Date().toISOString();
  const ph = (n: number) => Array.from({ length: n }, (_, i) => `$${i + 1}`).join(', ');
  try {
    let n = 0;
    let t = performance.now();
    for await (const c of lines<Consent>(consentsFile, sample)) {
      const v = consentValues(c, syncedAt);
      await db.query(`INSERT INTO consents (${CONSENT_COLUMNS.join(', ')}) VALUES (${ph(6)})`, v.consent);
      await db.query(`INSERT INTO consent_versions (${VERSION_COLUMNS.join(', ')}) VALUES (${ph(5)})`, v.version);
      n++;
    }
    const consents = { rows: n, ms: performance.now() - t };
    n = 0;
    t = performance.now();
    for await (const e of lines<ConsentEvent>(eventsFile, sample)) {
      await db.query(`INSERT INTO events (${EVENT_COLUMNS.join(', ')}) VALUES (${ph(7)})`, eventValues(e));
      n++;
    }
    return { consents, events: { rows: n, ms: performance.now() - t } };
  } finally {
    await db.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

// ---- the runs
const changed = Math.max(3, Math.round(N / 100));
const created = Math.max(1, Math.round(N / 100));
type Run = {
  full: SyncResult;
  incremental: SyncResult;
  copy: { consentsMs: number; eventsMs: number };
  naive: Record<'consents' | 'events', { rows: number; ms: number }>;
};
const runs: Run[] = [];
let counts = { consents: 0, events: 0, consentsMs: 0, eventsMs: 0 };
let idle = { peakRssMB: 0 };
try {
  await fetch(`${sandbox.url}/__sandbox/reset`, { method: 'POST' });
  await warmEvents();
  counts = await fetchOnce();
  console.log(
    `fetched once: ${fmtN(counts.consents)} consents in ${Math.round(counts.consentsMs)} ms, ${fmtN(counts.events)} events in ${Math.round(counts.eventsMs)} ms`,
  );
  idle = await runChild<{ peakRssMB: number }>({ mode: 'idle', db: '', url: '' });
  for (let r = 0; r < RUNS; r++) {
    console.log(`\nrun ${r + 1}/${RUNS}`);
    if (r > 0) {
      await fetch(`${sandbox.url}/__sandbox/reset`, { method: 'POST' });
      await warmEvents();
    }
    const syncDb = `sync_${r}`;
    await freshDb(syncDb).then((db) => db.close());
    console.log(' first sync (pgSyncEngine, its own process)');
    const full = await runChild<SyncResult>({ mode: 'full', db: dbUrl(syncDb), url: sandbox.url });
    if (full.summary.consents.new !== counts.consents)
      throw new Error(`the sync stored ${full.summary.consents.new} consents, ${counts.consents} served`);
    console.log(`  ${Math.round(full.totalMs)} ms, peak RSS ${Math.round(full.peakRssMB)} MiB`);
    console.log(' COPY-only load of the same rows (same schema, same indexes, same derived values)');
    const copy = await copyLoad(`copy_${r}`);
    console.log(`  consents ${Math.round(copy.consentsMs)} ms, events ${Math.round(copy.eventsMs)} ms`);
    console.log(` naive client: one INSERT per row, autocommit, first ${fmtN(NAIVE_ROWS)} rows of each`);
    const naive = await naiveLoad(`naive_${r}`, NAIVE_ROWS);
    console.log(` the intermediary changes: ${changed} consents (revoked, extended, updated), ${created} new`);
    const third = Math.ceil(changed / 3);
    await mutate(sandbox.url, { revoke: third, extend: third, update: changed - 2 * third, create: created });
    await warmEvents();
    const incremental = await runChild<SyncResult>({ mode: 'incremental', db: dbUrl(syncDb), url: sandbox.url });
    console.log(
      `  incremental ${Math.round(incremental.totalMs)} ms (consents new ${incremental.summary.consents.new}, changed ${incremental.summary.consents.changed}; events new ${incremental.summary.events.new})`,
    );
    await admin.query(`DROP DATABASE IF EXISTS ${syncDb} WITH (FORCE)`);
    runs.push({ full, incremental, copy, naive });
  }

  // ---- figures
  const col = <T>(f: (run: Run) => T) => runs.map(f);
  const consentsMs = col((x) => x.full.marks['events:start']! - (x.full.marks['consents:start'] ?? 0));
  const eventsMs = col((x) => x.full.marks['events:end']! - x.full.marks['events:start']!);
  const total = counts.consents + counts.events;
  const naiveRate = (entity: 'consents' | 'events') => col((x) => perSecond(x.naive[entity].rows, x.naive[entity].ms));
  const naiveBoth = col((x) => {
    const ms = (counts.consents * x.naive.consents.ms) / x.naive.consents.rows + (counts.events * x.naive.events.ms) / x.naive.events.rows;
    return perSecond(total, ms);
  });
  const syncRate = consentsMs.map((ms, i) => perSecond(total, ms + eventsMs[i]!));
  const copyRate = col((x) => perSecond(total, x.copy.consentsMs + x.copy.eventsMs));
  row(`first sync into PostgreSQL: ${fmtN(counts.consents)} consents + ${fmtN(counts.events)} events`, syncRate, 'rows/s', {
    baseline: { what: 'COPY-only load of the same rows into the same tables (same indexes, same derived values)', values: copyRate },
    target: { on: 'ratio', op: '≥', limit: 0.6 },
    note: `whole sync incl. token and reference lists: ${fmtN(Math.round(spread(col((x) => x.full.totalMs)).median))} ms`,
  });
  for (const entity of ['consents', 'events'] as const) {
    const n = counts[entity];
    const ms = entity === 'consents' ? consentsMs : eventsMs;
    row(
      `first sync: ${entity}`,
      ms.map((m) => perSecond(n, m)),
      `${entity}/s`,
      {
        baseline: {
          what: `COPY-only load of the same ${entity}`,
          values: col((x) => perSecond(n, entity === 'consents' ? x.copy.consentsMs : x.copy.eventsMs)),
        },
        target: { on: 'ratio', op: '≥', limit: 0.6 },
        note: `${fmtN(Math.round(spread(ms).median))} ms (from the phase's first progress to the next phase's); fetching them alone (pages of 1,000, client + JSON, written to a file): ${fmtN(Math.round(perSecond(n, entity === 'consents' ? counts.consentsMs : counts.eventsMs)))}/s`,
      },
    );
  }
  // The whole load fetched and parsed, nothing stored (the fetch-only limit of the sync, same run).
  const fetchAlone = (counts.consents + counts.events) / ((counts.consentsMs + counts.eventsMs) / 1000);
  row('first sync against a naive client', syncRate, 'rows/s', {
    baseline: {
      what: `a naive client, one INSERT per row (a consent: its row and its version), autocommit; measured over ${fmtN(NAIVE_ROWS)} rows of each and extrapolated`,
      values: naiveBoth,
    },
    target: { on: 'ratio', op: '≥', limit: 20 },
    note:
      `naive consents ${fmtN(Math.round(spread(naiveRate('consents')).median))}/s, events ${fmtN(Math.round(spread(naiveRate('events')).median))}/s; ` +
      `fetching alone, storing nothing, the same rows come at ${fmtN(Math.round(fetchAlone))}/s: ${(fetchAlone / spread(naiveBoth).median).toFixed(1)}× the naive client, the most any sync can reach here`,
  });
  row(
    `incremental sync: ${changed} changed, ${created} new`,
    col((x) => x.incremental.totalMs),
    'ms',
    {
      baseline: { what: 'the first sync (whole)', values: col((x) => x.full.totalMs) },
      target: { on: 'ratio', op: '≤', limit: 0.05 },
    },
  );
  row(
    'first sync: peak RSS of the syncing process',
    col((x) => x.full.peakRssMB),
    'MiB',
    {
      baseline: { what: 'an idle process with the same modules (tsx loader)', values: [idle.peakRssMB] },
    },
  );

  // ---- the readers: consoles reading a team server at once, a revoke seen across servers, memory as data grows
  await readersBench({
    admin,
    dbUrl,
    sandboxUrl: sandbox.url,
    consents: N,
    eventsPerConsent: E,
    clients: READERS,
    seconds: READ_SECONDS,
    revokes: REVOKES,
    thinkMs: Number(opt['think-ms']),
    smallConsents: SMALL,
    work,
    row,
  });
} finally {
  await sandbox.stop();
  await admin.end();
  await server.stop();
}

// ---- report
writeReport(rows, {
  out: opt.out,
  data: `Sandbox: ${fmtN(counts.consents)} consents, ${fmtN(counts.events)} events. Embedded PostgreSQL`,
  runs: RUNS,
  about: { consents: counts.consents, events: counts.events },
});
process.exit(0);
