import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { startCore, cacheFileOf } from '../../electron/core/console-core.js';
import { ConsentQuery } from '../../electron/core/cache/consent-query.js';
import { ConsentsRepo } from '../../electron/core/cache/consents-repo.js';
import { keyPragmas, openCache } from '../../electron/core/cache/database.js';
import { EventsRepo } from '../../electron/core/cache/events-repo.js';
import { DataQuery } from '../../electron/core/cache/data-query.js';
import { DataRepo } from '../../electron/core/cache/data-repo.js';
import { sqliteSyncStore } from '../../electron/core/cache/sqlite-sync-store.js';
import { syncData } from '../../electron/core/sync/data-sync.js';
import { DATA_KINDS, DataClient, type DataKind } from '../../electron/core/api/data-client.js';
import { createClientCredentialsTokenSource } from '../../electron/core/auth/token-source.js';
import { SYNC_RETRY } from '../../electron/core/sync/sync-job.js';
import { WEBHOOK_DELIVERIES, WEBHOOK_FAILURES } from '../../electron/core/cache/event-query.js';
import { DEFAULT_BATCH } from '../../electron/core/sync/batch.js';
import { BatchWriter } from '../../electron/core/cache/batch-writer.js';
import { contentId } from '../../electron/core/sync/consent-sync.js';
import type { SyncJob } from '../../electron/core/sync/sync-job.js';
import { runSyncJob } from '../../electron/core/cache/sqlite-sync-store.js';
import { CheckpointThread, WorkerThread } from '../../electron/core/worker/host.js';
import { normalizeRecord } from '../../shared/banking/index.js';
import type { JsonObject } from '../../shared/banking/values.js';
import { CONSENT_SORT_FIELDS, type SyncProgress, type TransactionFilter } from '../../shared/ipc/contract.js';
import type { Consent, ConsentEvent } from '../../shared/schemas/consent.js';
import { BENCH_KEY, dropFromOsCache, PROFILE, root } from './procs.js';

/**
 * One measured task of the benchmark, in a process of its own (so its peak RSS is its own):
 * `node dist/bench/child.mjs TASK JSON-ARGS` (its bundle, build/bundle-bench.mjs); prints one JSON
 * line with the result.
 * Progress goes to stderr. Nothing here asserts anything.
 */
const quiet = { info: () => undefined, error: () => undefined };
const now = () => performance.now();
const log = (text: string) => process.stderr.write(`  ${text}\n`);

async function token(url: string): Promise<string> {
  const res = await fetch(`${url}/oauth2/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from('sandbox-client:sandbox-secret').toString('base64')}` },
    body: new URLSearchParams({ grant_type: 'client_credentials' }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

/**
 * A page's text. A kept-alive connection the sandbox closed while this side was busy inserting (its
 * idle timeout) fails the request before anything is sent: the request is made again, up to twice,
 * as the console's own client does. Once ended a 20-minute run.
 */
async function pageText(url: string, headers: Record<string, string>): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await (await fetch(url, { headers })).text();
    } catch (error) {
      if (attempt >= 3 || !(error instanceof TypeError)) throw error;
    }
  }
}

/* eslint-disable @typescript-eslint/no-explicit-any -- API bodies are read as loose JSON */

const ENTITIES = {
  consents: { path: (page: number, size: number) => `/consents/v2?page=${page}&pageSize=${size}`, items: (b: any) => b.consents },
  events: { path: (page: number, size: number) => `/consents/events?page=${page}&page-size=${size}`, items: (b: any) => b.data.events },
} as const;

/**
 * The two limits of a sync, measured on the same pages: fetching and JSON.parse only (one request
 * at a time, as the sync's fetch does), and inserting the same rows with the same schema and the
 * same code (the repositories, in large transactions) without any fetching. Alternating chunks, each
 * timed on its own. Consents go into the empty table as the sync's first load does (indexes at the end).
 */
async function fetchInsert(a: { url: string; file: string; pageSize: number; batchRows: number }) {
  const auth = { authorization: `Bearer ${await token(a.url)}` };
  const db = openCache(a.file, BENCH_KEY, { writer: true });
  const consents = new ConsentsRepo(db);
  const events = new EventsRepo(db);
  const out: Record<string, { rows: number; fetchMs: number; insertMs: number; bytes: number; payloadBytes: number }> = {};
  for (const entity of ['consents', 'events'] as const) {
    const r = { rows: 0, fetchMs: 0, insertMs: 0, bytes: 0, payloadBytes: 0 };
    let buffer: any[] = [];
    // The sync's own transactions and checkpoints (batch.ts, on a helper thread), without the fetching.
    const helper = new CheckpointThread(a.file, keyPragmas(BENCH_KEY));
    const batch = new BatchWriter(db, DEFAULT_BATCH, () => undefined, helper);
    // As the sync's first load does: the consents' secondary indexes built once, at the end.
    let firstLoad = false;
    const insert = async (last: boolean) => {
      const t = now();
      if (entity === 'consents' && !firstLoad) firstLoad = consents.beginFirstLoad();
      for (let i = 0; i < buffer.length; i += a.pageSize) {
        const page = buffer.slice(i, i + a.pageSize);
        batch.write(entity, () => {
          if (entity === 'consents') consents.upsertPage(page as Consent[], new Date().toISOString());
          else events.upsertPage(page as ConsentEvent[], contentId);
          return { result: undefined, rows: page.length, changed: 0 };
        });
      }
      if (last && firstLoad) batch.write(entity, () => ({ result: consents.finishFirstLoad(), rows: 0, changed: 0 }));
      if (last) await batch.finish();
      r.insertMs += now() - t;
      buffer = [];
    };
    for (let page = 1; ; page++) {
      const t = now();
      const text = await pageText(`${a.url}${ENTITIES[entity].path(page, a.pageSize)}`, auth);
      const body = JSON.parse(text);
      r.fetchMs += now() - t;
      const items = ENTITIES[entity].items(body) as unknown[];
      r.rows += items.length;
      r.bytes += Buffer.byteLength(text);
      for (const item of items) r.payloadBytes += Buffer.byteLength(JSON.stringify(item));
      buffer.push(...items);
      if (buffer.length >= a.batchRows || !body.links.next) await insert(!body.links.next);
      if (!body.links.next) break;
    }
    await helper.close();
    out[entity] = r;
    log(`${entity}: fetch+parse ${Math.round((r.rows * 1000) / r.fetchMs)}/s, insert ${Math.round((r.rows * 1000) / r.insertMs)}/s`);
  }
  db.close();
  return out;
}

/**
 * A naive client: pages of 25, JSON.parse, one autocommitted insert per row, same schema and code,
 * for a time budget. `sqliteDefaults`: SQLite as it comes (rollback journal, synchronous FULL), as a
 * client that tunes nothing would have it; otherwise the console's own WAL settings.
 */
async function naive(a: { url: string; file: string; budgetMs: number; sqliteDefaults: boolean }) {
  const auth = { authorization: `Bearer ${await token(a.url)}` };
  const db = openCache(a.file, BENCH_KEY);
  if (a.sqliteDefaults) {
    db.pragma('journal_mode = DELETE');
    db.pragma('synchronous = FULL');
  }
  const consents = new ConsentsRepo(db);
  const events = new EventsRepo(db);
  const out: Record<string, { rows: number; ms: number }> = {};
  for (const entity of ['consents', 'events'] as const) {
    const t0 = now();
    let rows = 0;
    for (let page = 1; now() - t0 < a.budgetMs / 2; page++) {
      const body = JSON.parse(await pageText(`${a.url}${ENTITIES[entity].path(page, 25)}`, auth));
      for (const item of ENTITIES[entity].items(body)) {
        // Outside any transaction: each call commits on its own.
        if (entity === 'consents') consents.upsertPage([item], new Date().toISOString());
        else events.upsertPage([item], contentId);
        rows++;
      }
      if (!body.links.next) break;
    }
    out[entity] = { rows, ms: now() - t0 };
    log(`naive ${entity}: ${Math.round((rows * 1000) / out[entity].ms)}/s over ${rows} rows`);
  }
  db.close();
  return out;
}

/** The console's own sync (core, worker thread) into the data directory's cache: timings, peak RSS, RSS as events grow. */
async function sync(a: { dataDir: string; full?: boolean }) {
  const core = await startCore({
    dataDir: a.dataDir,
    host: 'cli',
    appVersion: 'bench',
    log: quiet,
    profileId: PROFILE,
    clientSecret: 'sandbox-secret',
  });
  const marks: Record<string, number> = {};
  let eventsDone = 0;
  let eventsTotal = 0;
  core.events.subscribe((event, payload) => {
    if (event !== 'sync:progress') return;
    const p = payload as SyncProgress;
    if (p.state === 'finished') marks[p.phase] = now();
    if (p.phase === 'events' && p.state === 'running') {
      eventsDone = p.done;
      eventsTotal = p.total ?? eventsTotal;
    }
  });
  const rss: { eventsDone: number; mb: number }[] = [];
  const sampler = setInterval(() => rss.push({ eventsDone, mb: process.memoryUsage().rss / 2 ** 20 }), 200);
  const t0 = now();
  const summary = await core.sync(a.full ? { full: true } : {});
  const t1 = now();
  clearInterval(sampler);
  await core.close();
  const file = cacheFileOf(a.dataDir, PROFILE);
  const at = (share: number) => rss.filter((s) => eventsTotal && s.eventsDone <= share * eventsTotal).at(-1)?.mb ?? null;
  const consentsEnd = marks.consents ?? t0;
  return {
    mode: summary.mode,
    summary: { consents: summary.consents, events: summary.events },
    totalMs: t1 - t0,
    // Full: consents first, then events. Incremental: events first, then the consents they name.
    consentsMs: summary.mode === 'full' ? consentsEnd - t0 : (marks.consents ?? t1) - (marks.events ?? t0),
    eventsMs: summary.mode === 'full' ? (marks.events ?? t1) - consentsEnd : (marks.events ?? t1) - t0,
    peakRssMB: process.resourceUsage().maxRSS / 1024,
    rssAtEvents: { '25%': at(0.25), '50%': at(0.5), '75%': at(0.75), '100%': rss.at(-1)?.mb ?? null },
    /** Where the peak is: the largest sample before the events phase (consents, FTS) and during it. */
    rssPeakBeforeEventsMB: Math.max(0, ...rss.filter((s) => s.eventsDone === 0).map((s) => s.mb)),
    rssPeakDuringEventsMB: Math.max(0, ...rss.filter((s) => s.eventsDone > 0).map((s) => s.mb)),
    fileBytes: statSync(file).size,
  };
}

/**
 * A page of consents (the first 100 by creation, newest first: the console's first screen) read
 * every 25 ms while a full sync writes, with the sync on a worker thread (as the console runs it)
 * or on the main thread (as before). Latency counts from when the read was due, so time spent
 * waiting for the main thread counts; the longest main-thread stall is the frozen frame.
 */
async function readsDuringSync(a: { url: string; file: string; inThread: boolean }) {
  openCache(a.file, BENCH_KEY).close();
  const reader = openCache(a.file, BENCH_KEY);
  const query = new ConsentQuery(reader);
  const job: SyncJob = {
    file: a.file,
    key: BENCH_KEY,
    tokens: {
      tokenUrl: `${a.url}/oauth2/token`,
      clientId: 'sandbox-client',
      clientSecret: 'sandbox-secret',
      method: 'client_secret_basic',
      scopes: [],
    },
    consentApiBaseUrl: a.url,
    dataApiBaseUrl: a.url,
    full: true,
  };
  const read = () => query.list({ filter: {}, sort: { field: 'created', direction: 'desc' }, offset: 0, limit: 100 });
  const probe = async (until: () => boolean) => {
    const latencies: number[] = [];
    const start = now();
    for (let k = 1; !until(); k++) {
      const due = start + k * 25;
      await sleep(Math.max(0, due - now()));
      read();
      latencies.push(now() - due);
    }
    return latencies;
  };
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  let done = false;
  const thread = a.inThread ? undefined : new WorkerThread();
  const hooks = { signal: new AbortController().signal, onProgress: () => undefined, onStored: () => undefined };
  const t0 = now();
  const running = (
    thread ? thread.run('sync', job).result : runSyncJob(job, openCache(a.file, BENCH_KEY, { writer: true }), hooks)
  ).finally(() => (done = true));
  const during = await probe(() => done);
  await running;
  const syncMs = now() - t0;
  loop.disable();
  await thread?.close();
  let idleRuns = 0;
  const idle = await probe(() => ++idleRuns > 100);
  reader.close();
  return { during, idle, syncMs, loopMaxMs: loop.max / 1e6, loopP99Ms: loop.percentile(99) / 1e6 };
}

interface QuerySpec {
  name: string;
  channel: string;
  input: unknown;
}

/** The reads the UI makes: every sort both ways, every filter, search, counts, options, detail, event views, export windows. */
async function querySpecs(core: Awaited<ReturnType<typeof startCore>>): Promise<QuerySpec[]> {
  const options = (await core.router.handle('consents:options', {}, true)) as { ok: true; value: any };
  const holder = options.value.dataHolders[0]?.id;
  const useCase = options.value.useCases[0]?.id;
  const any = core.cache.query.list({ filter: {}, sort: { field: 'created', direction: 'desc' }, offset: 0, limit: 1 })[0];
  const total = core.cache.query.count({}).total;
  const sample =
    core.cache.query.list({ filter: {}, sort: { field: 'created', direction: 'asc' }, offset: Math.floor(total / 3), limit: 1 })[0] ?? any;
  const newest = any?.created ? Date.parse(any.created) : Date.now();
  const days = (n: number) => new Date(newest - n * 86_400_000).toISOString();
  const filters: Record<string, unknown> = {
    'status ACTIVE': { statuses: ['ACTIVE'] },
    'status REVOKED or EXPIRED': { statuses: ['REVOKED', 'EXPIRED'] },
    'one data holder': { dataHolderBrandIds: [holder] },
    'one use case': { useCaseIds: [useCase] },
    'access frequency ONGOING': { accessFrequencies: ['ONGOING'] },
    'post-usage action DE_IDENTIFICATION': { postUsageActions: ['DE_IDENTIFICATION'] },
    'direct marketing allowed': { directMarketing: true },
    'created in the last 30 days': { created: { from: days(30) } },
    'sharing ends in a 30-day window': { sharingEnd: { from: days(0), to: days(-30) } },
    'revoked in the last 90 days': { revoked: { from: days(90) } },
    'search a common word (westpac)': { search: 'westpac' },
    'search an e-mail prefix': { search: sample?.consumerEmail?.slice(0, 6) ?? 'a' },
    'search a consent id prefix': { search: sample?.consentId.slice(0, 8) ?? 'a' },
    'search a mobile as typed': {
      search: sample?.consumerMobile ? `0${sample.consumerMobile.slice(3, 6)} ${sample.consumerMobile.slice(6)}` : '0412',
    },
    'status ACTIVE, one data holder, a word': { statuses: ['ACTIVE'], dataHolderBrandIds: [holder], search: 'budget' },
    // The consents whose webhook deliveries failed (issue 34): at any time, and in one day ("yesterday").
    'webhook failures at any time': { webhookFailures: {} },
    'webhook failures in one day': { webhookFailures: { from: days(1), to: days(0) } },
    // Anywhere (issue 40): a last name inside e-mails, a domain every consent has, a middle run of a mobile.
    'search anywhere: a last name inside e-mails': { search: sample?.consumerEmail?.split('.')[1] ?? 'smith' },
    'search anywhere: a domain (every consent)': { search: 'example.com' },
    'search anywhere: the middle of a mobile': {
      search: sample?.consumerMobile ? `${sample.consumerMobile.slice(5, 8)} ${sample.consumerMobile.slice(8, 10)}` : '345 67',
    },
  };
  const first = (filter: unknown, field = 'created', direction = 'desc', offset = 0) => ({
    filter,
    sort: { field, direction },
    offset,
    limit: 100,
  });
  const specs: QuerySpec[] = [];
  for (const field of CONSENT_SORT_FIELDS)
    for (const direction of ['asc', 'desc'])
      specs.push({ name: `list: sort by ${field} ${direction}`, channel: 'consents:list', input: first({}, field, direction) });
  specs.push({
    name: 'list: a window in the middle (created desc)',
    channel: 'consents:list',
    input: first({}, 'created', 'desc', Math.floor(total / 2)),
  });
  specs.push({ name: 'count: everything', channel: 'consents:count', input: { filter: {} } });
  for (const [name, filter] of Object.entries(filters)) {
    specs.push({ name: `list: ${name}`, channel: 'consents:list', input: first(filter) });
    specs.push({ name: `count: ${name}`, channel: 'consents:count', input: { filter } });
  }
  specs.push({ name: 'options: the values each filter offers', channel: 'consents:options', input: {} });
  specs.push({
    name: 'ids: every ACTIVE match (bulk actions)',
    channel: 'consents:ids',
    input: { filter: { statuses: ['ACTIVE'] }, sort: { field: 'created', direction: 'desc' }, limit: 10_000 },
  });
  if (sample)
    specs.push({
      name: 'detail: one consent (versions, timeline, staff actions)',
      channel: 'consents:get',
      input: { consentId: sample.consentId },
    });
  // The oversight screens, as each asks (overview, events, webhook failures, compliance report).
  specs.push({
    name: 'overview: active, never collected (count)',
    channel: 'consents:count',
    input: { filter: { statuses: ['ACTIVE'], collected: false } },
  });
  const eventCount = (await core.router.handle('events:count', { filter: {} }, true)) as { ok: true; value: { total: number } };
  const eventTotal = eventCount.value.total;
  const failures = { types: [...WEBHOOK_FAILURES] };
  const deliveries = { types: [...WEBHOOK_DELIVERIES] };
  const week = { from: days(7) };
  specs.push({ name: 'events: first page, newest first', channel: 'events:list', input: { filter: {}, offset: 0, limit: 100 } });
  specs.push({
    name: 'events: a window in the middle',
    channel: 'events:list',
    input: { filter: {}, offset: Math.floor(eventTotal / 2), limit: 100 },
  });
  specs.push({
    name: 'events: first page of one type (REVOKED)',
    channel: 'events:list',
    input: { filter: { types: ['REVOKED'] }, offset: 0, limit: 100 },
  });
  specs.push({ name: 'events: count with counts per type', channel: 'events:count', input: { filter: {} } });
  specs.push({ name: 'events: per-day counts, 30 days', channel: 'events:days', input: { filter: {}, days: 30 } });
  if (sample)
    specs.push({
      name: 'events: one consent’s timeline',
      channel: 'events:list',
      input: { filter: { consentId: sample.consentId }, offset: 0, limit: 100 },
    });
  specs.push({
    name: 'overview: webhook failures in 7 days (count)',
    channel: 'events:count',
    input: { filter: { ...failures, ...week } },
  });
  specs.push({
    name: 'overview/webhooks: deliveries and failures per day, 90 days',
    channel: 'events:days',
    input: { filter: { ...deliveries, from: days(90) }, days: 90 },
  });
  specs.push({
    name: 'overview: granted and withdrawn per day, 200 days',
    channel: 'events:days',
    input: { filter: { types: ['GRANTED', 'REVOKED'], from: days(200) }, days: 200 },
  });
  specs.push({
    name: 'webhook failures: grouped by message and by consent, all',
    channel: 'webhooks:summary',
    input: { filter: failures },
  });
  specs.push({ name: 'webhook failures: grouped, last 7 days', channel: 'webhooks:summary', input: { filter: { ...failures, ...week } } });
  specs.push({
    name: 'webhook failures: first page of the list',
    channel: 'events:list',
    input: { filter: failures, offset: 0, limit: 100 },
  });
  specs.push({ name: 'compliance report: 90 days', channel: 'reports:compliance', input: { from: days(90), to: days(0) } });
  specs.push({ name: 'status bar (app:status)', channel: 'app:status', input: {} });
  specs.push({ name: 'export: a window of 1,000 in the middle', channel: 'export-window', input: Math.floor(total / 2) });
  return specs;
}

/** Every read the UI makes, through the router as the UI calls it (validation included); cold and warm. */
async function queries(a: { dataDir: string; runs: number }) {
  const core = await startCore({
    dataDir: a.dataDir,
    host: 'cli',
    appVersion: 'bench',
    log: quiet,
    profileId: PROFILE,
    clientSecret: 'sandbox-secret',
  });
  const file = cacheFileOf(a.dataDir, PROFILE);
  const out: Record<string, { warm: number[]; cold: number[]; error?: string }> = {};
  // The in-memory read indexes are built in the background once the cache is open (the UI's first
  // reads go to SQL meanwhile): time that, then measure the reads as the UI makes them afterwards.
  const started = now();
  await core.cache.indexesReady();
  out['(in-memory read indexes built in the background after opening)'] = { warm: [now() - started], cold: [now() - started] };
  for (const spec of await querySpecs(core)) {
    const call = async () => {
      const t = now();
      if (spec.channel === 'export-window') {
        core.cache.query.list({ filter: {}, sort: { field: 'created', direction: 'desc' }, offset: spec.input as number, limit: 1000 });
        return now() - t;
      }
      const r = await core.router.handle(spec.channel, spec.input, true);
      if (!r.ok) throw new Error(`${spec.channel}: ${r.error.message}`);
      return now() - t;
    };
    try {
      const cold: number[] = [];
      for (let i = 0; i < a.runs; i++) {
        // Cold: nothing of the file in the operating system's cache, nothing in SQLite's.
        dropFromOsCache(file);
        core.cache.releaseMemory();
        cold.push(await call());
      }
      for (let i = 0; i < 3; i++) await call();
      const warm: number[] = [];
      for (let i = 0; i < a.runs; i++) warm.push(await call());
      out[spec.name] = { warm, cold };
    } catch (error) {
      out[spec.name] = { warm: [], cold: [], error: (error as Error).message };
    }
  }
  await core.close();
  return out;
}

/** A keyed open of the cache (what every start, CLI command and sync does), cold and warm. */
async function open(a: { dataDir: string; runs: number }) {
  const { SecretVault, secretNames } = await import('../../electron/core/secrets/vault.js');
  const { createKeyFileCipher } = await import('../../electron/core/secrets/cipher.js');
  const key = new SecretVault(a.dataDir, createKeyFileCipher(a.dataDir)).get(secretNames.cacheKey(PROFILE))!;
  const file = cacheFileOf(a.dataDir, PROFILE);
  const time = (cold: boolean) => {
    if (cold) dropFromOsCache(file);
    const t = now();
    openCache(file, key).close();
    return now() - t;
  };
  return { cold: Array.from({ length: a.runs }, () => time(true)), warm: Array.from({ length: a.runs }, () => time(false)) };
}

/** The normaliser on the real product fixtures, against JSON.parse of the same bytes. */
function normalizer(a: { ms: number }) {
  const dir = join(root, 'test/fixtures/products-real');
  const records: JsonObject[] = [];
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.json'))) {
    const json = JSON.parse(readFileSync(join(dir, f), 'utf8'));
    records.push(...((json.data.products ?? [json.data]) as JsonObject[]).filter((r) => Array.isArray(r.fees)));
  }
  const texts = records.map((r) => JSON.stringify(r));
  const bytes = texts.reduce((n, t) => n + Buffer.byteLength(t), 0);
  const rate = (fn: () => void) => {
    fn();
    let rounds = 0;
    const t = now();
    while (now() - t < a.ms) {
      fn();
      rounds++;
    }
    return (rounds * bytes) / ((now() - t) / 1000);
  };
  return {
    records: records.length,
    bytes,
    normalizeBytesPerS: rate(() => records.forEach((r) => normalizeRecord(r))),
    parseBytesPerS: rate(() => texts.forEach((t) => JSON.parse(t))),
  };
}

/* ---- the Data API records and the data browser's transactions (issue 21) ---- */

/** What the data benchmark syncs: the transactions, and the accounts and balances the browser shows them with. */
const DATA_BENCH_KINDS: DataKind[] = ['accounts', 'balances', 'transactions'];

/**
 * The two limits of a Data API sync, on the same pages: fetching and JSON.parse only (one request at
 * a time, as the sync's fetch does), and inserting the same rows with the same schema and code
 * (DataRepo.upsertPage, full-text triggers included) in large transactions, without any fetching.
 */
async function dataLimits(a: { url: string; file: string; pageSize: number; batchRows: number }) {
  const auth = { authorization: `Bearer ${await token(a.url)}` };
  const db = openCache(a.file, BENCH_KEY, { writer: true });
  const repo = new DataRepo(db);
  const fetchedAt = new Date().toISOString();
  const r = { rows: 0, fetchMs: 0, insertMs: 0, bytes: 0 };
  // The sync's own transactions and checkpoints (batch.ts, on a helper thread), without the fetching.
  const helper = new CheckpointThread(a.file, keyPragmas(BENCH_KEY));
  const batch = new BatchWriter(db, DEFAULT_BATCH, () => undefined, helper);
  for (const [k, kind] of DATA_BENCH_KINDS.entries()) {
    const spec = DATA_KINDS[kind];
    let buffer: any[] = [];
    const insert = async (last: boolean) => {
      const t = now();
      for (let i = 0; i < buffer.length; i += a.pageSize) {
        const page = buffer.slice(i, i + a.pageSize);
        batch.write('data', () => ({ result: undefined, rows: repo.upsertPage(kind, page, fetchedAt), changed: 0 }));
      }
      if (last && k === DATA_BENCH_KINDS.length - 1) await batch.finish();
      r.insertMs += now() - t;
      buffer = [];
    };
    for (let page = 1; ; page++) {
      const t = now();
      const text = await pageText(`${a.url}/${spec.path}?page=${page}&pageSize=${a.pageSize}`, auth);
      const body = JSON.parse(text);
      r.fetchMs += now() - t;
      r.bytes += Buffer.byteLength(text);
      const items = (body.data[spec.collection] ?? []) as unknown[];
      r.rows += items.length;
      for (const item of items) buffer.push(item);
      if (buffer.length >= a.batchRows || !body.links.next) await insert(!body.links.next);
      if (!body.links.next) break;
    }
  }
  await helper.close();
  db.close();
  log(`data: fetch+parse ${Math.round((r.rows * 1000) / r.fetchMs)}/s, insert ${Math.round((r.rows * 1000) / r.insertMs)}/s`);
  return r;
}

/** The sandbox's client credentials, every scope. */
const sandboxTokens = (url: string) =>
  createClientCredentialsTokenSource({
    tokenUrl: `${url}/oauth2/token`,
    clientId: 'sandbox-client',
    clientSecret: 'sandbox-secret',
    method: 'client_secret_basic',
    scopes: [],
  });

/** The console's own Data API sync (sync/data-sync.ts over the SQLite sync store, as the worker runs it) into a new cache. */
async function dataSync(a: { url: string; file: string; pageSize: number }) {
  const db = openCache(a.file, BENCH_KEY, { writer: true });
  const tokens = sandboxTokens(a.url);
  // As the worker runs it (sync-job.ts): the SQLite sync store, its WAL copied back on a helper thread.
  const helper = new CheckpointThread(a.file, keyPragmas(BENCH_KEY));
  const t = now();
  const summary = await syncData({
    store: sqliteSyncStore(db, { checkpointer: helper }),
    client: new DataClient({ baseUrl: a.url, tokens, retry: SYNC_RETRY }),
    kinds: DATA_BENCH_KINDS,
    pageSize: a.pageSize,
  });
  const ms = now() - t;
  await helper.close();
  db.close();
  const rows = Object.values(summary.records).reduce((x, y) => x + y, 0);
  log(`data sync: ${rows} records in ${Math.round(ms)} ms`);
  return { ms, rows, records: summary.records, failures: summary.failures.length, peakRssMB: process.resourceUsage().maxRSS / 1024 };
}

/**
 * The second and third Data API syncs of a cache the console filled (issue 36): incremental, they
 * ask only for the transactions the intermediary retrieved since the last one began. First with
 * nothing new, then after the sandbox's clock moved `advanceDays` on (its accounts gain
 * transactions). What each read over HTTP (the sandbox's count of served transaction pages).
 */
async function dataSyncAgain(a: { url: string; file: string; pageSize: number; advanceDays: number }) {
  const db = openCache(a.file, BENCH_KEY, { writer: true });
  const tokens = sandboxTokens(a.url);
  const helper = new CheckpointThread(a.file, keyPragmas(BENCH_KEY));
  const served = async () => {
    const log = ((await (await fetch(`${a.url}/__sandbox/requests`)).json()) as { requests: string[] }).requests;
    return log.filter((r) => r.startsWith('GET /data/banking/transactions?')).length;
  };
  const once = async () => {
    const pages0 = await served();
    const t = now();
    const summary = await syncData({
      store: sqliteSyncStore(db, { checkpointer: helper }),
      client: new DataClient({ baseUrl: a.url, tokens, retry: SYNC_RETRY }),
      kinds: ['transactions'],
      pageSize: a.pageSize,
    });
    return { ms: now() - t, rows: summary.records.transactions ?? 0, pages: (await served()) - pages0, failures: summary.failures.length };
  };
  const nothingNew = await once();
  await fetch(`${a.url}/__sandbox/clock`, { method: 'POST', body: JSON.stringify({ advanceDays: a.advanceDays }) });
  const someNew = await once();
  const held = db.prepare<[], { n: number }>("SELECT count(*) AS n FROM data_records WHERE kind = 'transactions'").get()!.n;
  await helper.close();
  db.close();
  log(`data sync again: nothing new ${Math.round(nothingNew.ms)} ms; ${someNew.rows} new in ${Math.round(someNew.ms)} ms`);
  return { nothingNew, someNew, held };
}

/**
 * The data browser's transactions: a window of 100 with its count for every kind of filter, and
 * searches of the descriptions, on the largest consent and on one of middling size, through the
 * data browser's reads (DataQuery: what data:records calls), from memory and from SQL (the same
 * class without its index) on the same cache. Warm: the index in memory, SQLite's pages cached.
 */
async function txQueries(a: { file: string; runs: number; sqlRuns: number }) {
  const db = openCache(a.file, BENCH_KEY);
  const fast = new DataQuery(db);
  const sql = new DataQuery(db, { useIndex: false });
  const sizes = db
    .prepare<[], { id: string; n: number }>(
      "SELECT consent_id AS id, count(*) AS n FROM data_records WHERE kind = 'transactions' GROUP BY consent_id ORDER BY n DESC",
    )
    .all();
  const total = sizes.reduce((x, c) => x + c.n, 0);
  const picked = [sizes[0]!, sizes[Math.floor(sizes.length / 4)]!];
  const out = {
    total,
    consents: sizes.length,
    picked: picked.map((c) => ({ n: c.n, buildMs: 0 })),
    window: { fast: [] as number[], sql: [] as number[], worst: '' },
    search: { fast: [] as number[], sql: [] as number[], worst: '' },
    mismatches: [] as string[],
    rssMB: 0,
  };
  const rss0 = process.memoryUsage().rss;
  for (const [i, c] of picked.entries()) {
    const t = now();
    await fast.ready(c.id);
    out.picked[i]!.buildMs = now() - t;
    log(`transactions of a consent of ${c.n} in memory in ${Math.round(now() - t)} ms`);
    if (!fast.indexed(c.id)) out.mismatches.push(`${c.id}: not indexed`);
  }
  out.rssMB = (process.memoryUsage().rss - rss0) / 2 ** 20;
  const worst = { window: 0, search: 0 };
  for (const c of picked) {
    const first = fast.records({ consentId: c.id, kind: 'transactions', offset: 0, limit: 100 }).rows[0]?.raw as any;
    const newest = String(first?.postingDateTime ?? first?.executionDateTime ?? '2026-01-01').slice(0, 10);
    const daysBefore = (n: number) => new Date(Date.parse(newest) - n * 86_400_000).toISOString().slice(0, 10);
    const account = String(first?.accountId ?? '');
    const specs: [kind: 'window' | 'search', name: string, filter: TransactionFilter, offset: number][] = [
      ['window', 'no filter, the first window', {}, 0],
      ['window', 'no filter, a window in the middle', {}, Math.floor(c.n / 2)],
      ['window', 'no filter, the last window', {}, Math.max(0, c.n - 100)],
      ['window', 'one account', { accountIds: [account] }, 0],
      ['window', 'type PAYMENT', { types: ['PAYMENT'] }, 0],
      ['window', 'status PENDING', { statuses: ['PENDING'] }, 0],
      ['window', 'the newest 30 days', { fromDay: daysBefore(30) }, 0],
      ['window', 'amounts from -50 to -10', { minAmount: '-50', maxAmount: '-10' }, 0],
      [
        'window',
        'account, type, 90 days and amount together, a window further on',
        { accountIds: [account], types: ['PAYMENT', 'DIRECT_DEBIT'], fromDay: daysBefore(90), toDay: newest, minAmount: '-100' },
        200,
      ],
      ['search', 'a common word (salary)', { search: 'salary' }, 0],
      ['search', 'a rare word (chargeback)', { search: 'chargeback' }, 0],
      ['search', 'a prefix (wool)', { search: 'wool' }, 0],
      ['search', 'a short prefix of many words (s)', { search: 's' }, 0],
      ['search', 'two words (salary acme)', { search: 'salary acme' }, 0],
      ['search', 'a word and a filter (wool, one account, PAYMENT)', { search: 'wool', accountIds: [account], types: ['PAYMENT'] }, 0],
    ];
    for (const [kind, name, filter, offset] of specs) {
      const input = { consentId: c.id, kind: 'transactions' as const, filter, offset, limit: 100 };
      const time = (q: DataQuery) => {
        const t = now();
        const r = q.records(input);
        return { ms: now() - t, r };
      };
      for (let i = 0; i < 2; i++) time(fast);
      const fastMs: number[] = [];
      for (let i = 0; i < a.runs; i++) fastMs.push(time(fast).ms);
      const sqlMs: number[] = [];
      let sqlAnswer: { total: number; rows: { recordId: string }[] } | undefined;
      for (let i = 0; i < a.sqlRuns; i++) {
        const x = time(sql);
        sqlMs.push(x.ms);
        sqlAnswer = x.r;
      }
      const mine = fast.records(input);
      if (
        sqlAnswer &&
        (mine.total !== sqlAnswer.total || mine.rows.map((r) => r.recordId).join() !== sqlAnswer.rows.map((r) => r.recordId).join())
      )
        out.mismatches.push(`${name} (${c.n})`);
      out[kind].fast.push(...fastMs);
      out[kind].sql.push(...sqlMs);
      const p95 = [...fastMs].sort((x, y) => x - y)[Math.ceil(0.95 * fastMs.length) - 1]!;
      if (p95 >= worst[kind]) {
        worst[kind] = p95;
        out[kind].worst = `${name} in the consent of ${c.n} (total ${mine.total}): p95 ${p95.toFixed(2)} ms`;
      }
      log(
        `${name} (${c.n}): memory ${Math.round(Math.max(...fastMs) * 100) / 100} ms max, SQL ${Math.round(Math.min(...sqlMs))} ms min; ${mine.total} found`,
      );
    }
  }
  fast.close();
  db.close();
  return out;
}

const [task, json] = process.argv.slice(2) as [string, string];
const args = JSON.parse(json ?? '{}');
const tasks: Record<string, (a: any) => unknown> = {
  fetchInsert,
  naive,
  sync,
  readsDuringSync,
  queries,
  open,
  normalizer,
  dataLimits,
  dataSync,
  dataSyncAgain,
  txQueries,
};
const result = await tasks[task]!(args);
process.stdout.write(`\n${JSON.stringify(result)}\n`);
process.exit(0);
