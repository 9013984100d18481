import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { normalizeRecord } from '../../shared/banking/index.js';
import type { JsonObject } from '../../shared/banking/values.js';
import { ConsentClient } from '../../electron/core/api/consent-client.js';
import { createClientCredentialsTokenSource } from '../../electron/core/auth/token-source.js';
import { ConsentsRepo, SyncStateRepo } from '../../electron/core/cache/consents-repo.js';
import { openCache } from '../../electron/core/cache/database.js';
import { EventsRepo, ReferenceRepo } from '../../electron/core/cache/events-repo.js';
import { syncConsents } from '../../electron/core/sync/consent-sync.js';
import { createConsentGenerator } from '../../electron/sandbox/consents.js';
import { startSandbox } from '../../electron/sandbox/server.js';
import { tempDir } from './temp.js';

/**
 * `npm run bench`: throughput and memory of the hot paths, each beside a baseline measured in the
 * same run on the same data (so a slow machine shows as a slow baseline, not as a regression).
 * Prints a table and writes test-results/bench.json. Not a test: nothing here asserts a time.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
interface Row {
  name: string;
  value: number;
  unit: string;
  baseline: string;
  baselineValue: number;
  note?: string;
}
const rows: Row[] = [];

/** Runs fn repeatedly for at least `ms` and returns operations per second. */
function rate(fn: () => number, ms = 2000): number {
  fn(); // warm-up
  let ops = 0;
  const start = performance.now();
  while (performance.now() - start < ms) ops += fn();
  return (ops * 1000) / (performance.now() - start);
}

function benchNormalizer(): void {
  const dir = join(root, 'test/fixtures/products-real');
  const records: JsonObject[] = [];
  let bytes = 0;
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.json'))) {
    const text = readFileSync(join(dir, f), 'utf8');
    const json = JSON.parse(text);
    const list = json.data.products ?? [json.data];
    records.push(...list);
    bytes += text.length;
  }
  const detail = records.filter((r) => Array.isArray(r.fees));
  const normalized = rate(() => {
    for (const r of detail) normalizeRecord(r);
    return detail.length;
  });
  const copied = rate(() => {
    for (const r of detail) structuredClone(r);
    return detail.length;
  });
  rows.push({
    name: `normalizer: real product details (${detail.length} fixtures, ${(bytes / 1024).toFixed(0)} KiB incl. the list)`,
    value: normalized,
    unit: 'records/s',
    baseline: 'structuredClone of the same records',
    baselineValue: copied,
  });
  // Per-record cost varies with size: the 291 KiB CBA term deposit dominates. A typical record:
  const small = detail.filter((r) => JSON.stringify(r).length < 30_000);
  rows.push({
    name: `normalizer: the ${small.length} records under 30 KB`,
    value: rate(() => {
      for (const r of small) normalizeRecord(r);
      return small.length;
    }),
    unit: 'records/s',
    baseline: 'structuredClone of the same records',
    baselineValue: rate(() => {
      for (const r of small) structuredClone(r);
      return small.length;
    }),
  });
}

function benchGenerator(): void {
  const gen = createConsentGenerator(1, 1_000_000);
  let i = 0;
  const generated = rate(() => {
    for (let k = 0; k < 500; k++) gen.at(i++);
    return 500;
  });
  const sample = Array.from({ length: 500 }, (_, k) => gen.at(k));
  const serialised = rate(() => {
    for (const c of sample) JSON.stringify(c);
    return 500;
  });
  rows.push({
    name: 'sandbox: consent generation (seeded, per record)',
    value: generated,
    unit: 'consents/s',
    baseline: 'JSON.stringify of ready consents',
    baselineValue: serialised,
  });
}

async function benchSync(): Promise<void> {
  const consents = 20_000;
  const sandbox = await startSandbox({ consents });
  const tokens = createClientCredentialsTokenSource({
    tokenUrl: `${sandbox.url}/oauth2/token`,
    clientId: 'sandbox-client',
    clientSecret: 'sandbox-secret',
    method: 'client_secret_basic',
    scopes: [],
  });
  const client = new ConsentClient({ baseUrl: sandbox.url, tokens });
  // Baselines: fetching the same pages, parsing nothing, storing nothing.
  const fetchAll = async (path: (page: number) => string, pages: number) => {
    const token = await tokens.getToken();
    const t = performance.now();
    for (let page = 1; page <= pages; page++)
      await fetch(`${sandbox.url}${path(page)}`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.text());
    return performance.now() - t;
  };
  const consentFetchMs = await fetchAll((p) => `/consents/v2?page=${p}&pageSize=500`, consents / 500);
  let eventTotal = 0;
  for await (const p of client.listEventPages({ pageSize: 1 })) {
    eventTotal = p.totalRecords;
    break;
  }
  const eventFetchMs = await fetchAll((p) => `/consents/events?page=${p}&page-size=500`, Math.ceil(eventTotal / 500));

  const db = openCache(join(tempDir(), 'bench.sqlite'), 'ab'.repeat(32));
  const deps = {
    db,
    client,
    consents: new ConsentsRepo(db),
    events: new EventsRepo(db),
    reference: new ReferenceRepo(db),
    state: new SyncStateRepo(db),
    pageSize: 500,
  };
  const rss0 = process.memoryUsage().rss;
  let t = performance.now();
  await syncConsents({ ...deps, parts: { consents: true, events: false, reference: false } });
  const consentMs = performance.now() - t;
  t = performance.now();
  await syncConsents({ ...deps, parts: { consents: false, events: true, reference: false } });
  const eventMs = performance.now() - t;
  const rss1 = process.memoryUsage().rss;
  t = performance.now();
  await syncConsents({ ...deps, parts: { consents: true, events: false, reference: false } });
  const againMs = performance.now() - t;
  db.close();
  await sandbox.close();
  const perSecond = (n: number, ms: number) => (n * 1000) / ms;
  rows.push({
    name: `sync: ${consents.toLocaleString('en-AU')} consents → encrypted SQLite (first)`,
    value: perSecond(consents, consentMs),
    unit: 'consents/s',
    baseline: 'fetching the same pages only',
    baselineValue: perSecond(consents, consentFetchMs),
    note: `RSS +${((rss1 - rss0) / 2 ** 20).toFixed(0)} MiB with events`,
  });
  rows.push({
    name: 'sync: the same consents again (all unchanged)',
    value: perSecond(consents, againMs),
    unit: 'consents/s',
    baseline: 'fetching the same pages only',
    baselineValue: perSecond(consents, consentFetchMs),
  });
  rows.push({
    name: `sync: their ${eventTotal.toLocaleString('en-AU')} events (first)`,
    value: perSecond(eventTotal, eventMs),
    unit: 'events/s',
    baseline: 'fetching the same pages only',
    baselineValue: perSecond(eventTotal, eventFetchMs),
  });
}

/** The command as analysts use it: thousands of files in one run, against a process that only reads, parses and re-prints them. */
function benchNormalizeCommand(): void {
  const src = join(root, 'test/fixtures/products-real');
  const files = readdirSync(src).filter((f) => f.endsWith('.json') && !f.includes('product_list'));
  const dir = tempDir();
  const copies = 100;
  for (let i = 0; i < copies; i++) for (const f of files) copyFileSync(join(src, f), join(dir, `${i}-${f}`));
  const count = copies * files.length;
  const time = (args: string[]) => {
    const start = performance.now();
    const r = spawnSync(process.execPath, args, { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
    if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}`);
    return (count * 1000) / (performance.now() - start);
  };
  const normalized = time(['--import', 'tsx', 'electron/cli/normalize.ts', dir]);
  const copyScript = `const fs=require('fs'),p=require('path');const d=process.argv[1];for(const f of fs.readdirSync(d).sort()){const t=fs.readFileSync(p.join(d,f),'utf8');process.stdout.write(JSON.stringify({input:f,ok:true,data:JSON.parse(t)})+'\\n')}`;
  const baseline = time(['-e', copyScript, dir]);
  rows.push({
    name: `normalize command: ${count.toLocaleString('en-AU')} product detail files in one run`,
    value: normalized,
    unit: 'files/s',
    baseline: 'a process that reads, parses and prints them',
    baselineValue: baseline,
  });
}

/** The sandbox at scale: 100,000 consents and 1,000,000 events, built on demand, not up front. */
async function benchSandboxScale(): Promise<void> {
  const rss0 = process.memoryUsage().rss;
  let start = performance.now();
  const sandbox = await startSandbox({ consents: 100_000, eventsPerConsent: 10 });
  const startMs = performance.now() - start;
  const token = await fetch(`${sandbox.url}/oauth2/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from('sandbox-client:sandbox-secret').toString('base64')}` },
    body: new URLSearchParams({ grant_type: 'client_credentials' }),
  }).then((r) => r.json() as Promise<{ access_token: string }>);
  const get = (path: string) =>
    fetch(`${sandbox.url}${path}`, { headers: { authorization: `Bearer ${token.access_token}` } }).then((r) => r.text());
  start = performance.now();
  await get('/consents/events?page=1&page-size=1000');
  const firstEvents = performance.now() - start;
  const rss1 = process.memoryUsage().rss;
  const timeMany = async (path: (i: number) => string, n: number) => {
    const t = performance.now();
    for (let i = 0; i < n; i++) await get(path(i));
    return (performance.now() - t) / n;
  };
  const eventPage = await timeMany((i) => `/consents/events?page=${1 + ((i * 97) % 1000)}&page-size=1000`, 20);
  const consentPage = await timeMany((i) => `/consents/v2?page=${1 + ((i * 7) % 100)}&pageSize=1000`, 20);
  const filtered = await timeMany(() => '/consents/v2?status=ACTIVE&pageSize=100', 5);
  const trivial = await timeMany(() => '/use-cases', 20);
  await sandbox.close();
  const sorted = (() => {
    const t = performance.now();
    const a = new Float64Array(1_000_000);
    for (let i = 0; i < a.length; i++) a[i] = Math.random();
    new Uint32Array(a.length).map((_, i) => i).sort((x, y) => a[x]! - a[y]!);
    return performance.now() - t;
  })();
  rows.push({
    name: 'sandbox: start with 100,000 consents',
    value: startMs,
    unit: 'ms',
    baseline: 'n/a (nothing is built up front)',
    baselineValue: startMs,
  });
  rows.push({
    name: 'sandbox: first events page, building the index of 1,000,000 events',
    value: firstEvents,
    unit: 'ms',
    baseline: 'sorting 1,000,000 random timestamps',
    baselineValue: sorted,
    note: `RSS +${((rss1 - rss0) / 2 ** 20).toFixed(0)} MiB`,
  });
  rows.push({
    name: 'sandbox: an events page of 1,000 (index built)',
    value: eventPage,
    unit: 'ms',
    baseline: 'GET /use-cases on the same server',
    baselineValue: trivial,
  });
  rows.push({
    name: 'sandbox: a consents page of 1,000',
    value: consentPage,
    unit: 'ms',
    baseline: 'GET /use-cases on the same server',
    baselineValue: trivial,
  });
  rows.push({
    name: 'sandbox: status=ACTIVE over 100,000 consents, page of 100',
    value: filtered,
    unit: 'ms',
    baseline: 'GET /use-cases on the same server',
    baselineValue: trivial,
  });
}

benchNormalizer();
benchNormalizeCommand();
await benchSandboxScale();
benchGenerator();
await benchSync();

const fmt = (n: number) => Math.round(n).toLocaleString('en-AU');
console.log(`\nNode ${process.version}, ${process.arch}; one core per measurement\n`);
for (const r of rows) {
  console.log(
    `${r.name}\n  ${fmt(r.value).padStart(10)} ${r.unit}   baseline (${r.baseline}): ${fmt(r.baselineValue)} ${r.unit}   ratio ${(r.value / r.baselineValue).toFixed(2)}${r.note ? `   ${r.note}` : ''}`,
  );
}
mkdirSync(join(root, 'test-results'), { recursive: true });
writeFileSync(join(root, 'test-results/bench.json'), `${JSON.stringify({ node: process.version, rows }, null, 2)}\n`);
