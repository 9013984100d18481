import fc from 'fast-check';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startCore, type Core } from '../../electron/core/console-core.js';
import { SESSION_COOKIE, startBrowserHost, type BrowserHost } from '../../electron/host/server.js';
import { inputProblem } from '../../electron/ipc/input-guard.js';
import { CHANNELS, type Channel } from '../../shared/ipc/contract.js';
import { contract } from '../../shared/ipc/contract.js';
import { tempDir } from '../helpers/temp.js';

/**
 * Every IPC channel fuzzed over the real WebSocket of a real browser host (core, embedded sandbox,
 * encrypted cache): wrong types, huge strings, deep nesting, prototype keys, lone surrogates, NULs,
 * in place of the whole input or of any one field, or added beside them. Every payload is answered
 * with its own id: ok, or a refusal that is not an internal error; a payload the contract refuses is
 * answered INVALID_INPUT. Afterwards the host still serves a new connection, and nothing in the
 * cache, the audit log, the settings or the data directory has changed.
 */

const RUNS_PER_CHANNEL = 100;

let core: Core;
let host: BrowserHost;
let dataDir: string;
let ws: WebSocket;
const internalErrors: string[] = [];

const Instant = '2026-10-01T00:00:00.000Z';
const filter = { search: 'a', statuses: ['ACTIVE'], dataHolderBrandIds: ['x'], created: { from: Instant } };
const sort = { field: 'created', direction: 'desc' };
const eventFilter = { types: ['CONSENT_REVOKED'], consentId: 'c', from: Instant };
const profile = {
  id: 'fuzzed',
  name: 'Fuzzed',
  environment: 'nonprod',
  consentApiBaseUrl: 'https://intermediary.example/',
  tokenUrl: 'https://auth.example/token',
  clientId: 'client',
  authMethod: 'client_secret_basic',
  scopes: ['consents:read'],
};

const complaint = {
  receivedOn: '2026-01-02',
  channel: 'phone',
  category: 'privacy',
  description: 'A complaint',
  consentId: 'c',
  consumerId: null,
  outcome: null,
  resolvedOn: null,
  referredTo: null,
};

/** A valid input of every channel: the fuzz replaces, in turn, each of its parts. */
const BASE: Record<Channel, unknown> = {
  'app:status': {},
  'client:connect': { url: 'https://console.example.com' },
  'app:reportError': { where: '/consents', location: '/consents?q=x', message: 'RangeError: x', stack: 'at f (a.js:1:2)' },
  'consents:list': { filter, sort, offset: 0, limit: 10 },
  'consents:count': { filter },
  'consents:options': {},
  'consents:ids': { filter, sort, limit: 10 },
  'consents:resolve': { consentIds: ['a', 'b'] },
  'consents:get': { consentId: 'c' },
  'consents:export': { filter, sort, columns: ['created'], format: 'csv' },
  'consents:create': { useCaseId: 'u', dataHolderBrandId: 'd', sharingEndDate: Instant, consumerEmail: 'a@b.c' },
  'evidence:export': { consentId: 'c' },
  'reference:list': {},
  'jobs:list': {},
  'jobs:items': { jobId: 'j', offset: 0, limit: 10 },
  'jobs:control': { jobId: 'j', action: 'rate', perSecond: 1 },
  'jobs:export': { jobId: 'j', format: 'csv' },
  'settings:get': {},
  'settings:set': { theme: 'dark', syncEveryMinutes: 5 },
  'sandbox:approve': { uri: 'https://example.invalid/authorize?x=1' },
  'consents:revoke': { consentId: 'c', reason: 'r' },
  'consents:update': { consentId: 'c', change: { externalId: 'e', directMarketingAllowed: true }, reason: 'r' },
  'authorization:start': { consentId: 'c', redirectUri: 'https://example.invalid/cb', sharingEndDate: Instant },
  'authorization:decode': { response: 'a.b.c', consentId: 'c' },
  'authorization:complete': { consentId: 'c', response: 'a.b.c' },
  'bulk:revoke': { consentIds: ['a', 'b'], reason: 'r', perSecond: 1 },
  'events:failures': { page: 1, pageSize: 10 },
  'sync:start': { data: false, full: false, consentIds: ['c'] },
  'sync:cancel': {},
  'data:list': { kind: 'accounts', consentId: 'c', page: 1, pageSize: 10 },
  'audit:list': { target: 'c', limit: 10 },
  'audit:verify': {},
  'audit:checkpoint': {},
  'audit:export': { format: 'json' },
  'audit:query': { filter: { operator: 'o', action: 'a', target: 't', from: Instant }, offset: 0, limit: 10 },
  'audit:options': {},
  'audit:exportFile': { filter: { operator: 'o' }, format: 'csv' },
  'events:list': { filter: eventFilter, offset: 0, limit: 10 },
  'events:count': { filter: eventFilter },
  'events:days': { filter: eventFilter, days: 7 },
  'events:export': { filter: eventFilter, format: 'json' },
  'webhooks:summary': { filter: eventFilter },
  'reports:compliance': { from: '2026-01-01T00:00:00.000Z', to: Instant },
  'reports:export': { from: '2026-01-01T00:00:00.000Z', to: Instant, format: 'csv' },
  'reports:monthlyPacks': {},
  // Refused by the handler (no such zone; no such pack): they write nothing.
  'reports:scheduleMonthlyPack': { enabled: false, timeZone: 'Nowhere/Never' },
  'reports:exportMonthlyPack': { period: '2019-01', format: 'csv' },
  'sync:last': {},
  'profiles:list': {},
  'profiles:test': { id: 'no-such-profile' },
  'profiles:save': profile,
  'profiles:remove': { id: 'fuzzed' },
  'profiles:switch': { id: 'fuzzed' },
  'cache:reset': {},
  'operator:get': {},
  'operator:set': { displayName: 'Fuzzer' },
  'data:consents': { consumerId: 'u', dataHolderBrandId: 'd', search: 's', offset: 0, limit: 10 },
  'data:groups': { by: 'holder', search: 's' },
  'data:meta': { consentId: 'c' },
  'data:records': {
    consentId: 'c',
    kind: 'transactions',
    filter: { search: 'coffee', fromDay: '2026-01-01', minAmount: '-10.50', types: ['PAYMENT'] },
    offset: 0,
    limit: 10,
  },
  'data:export': { consentId: 'c', kind: 'accounts', format: 'csv' },
  'data:sync': { consentIds: ['c'] },
  'products:list': { filter: { dataHolderBrandIds: ['d'], categories: ['TRANS_AND_SAVINGS_ACCOUNTS'], search: 's' }, offset: 0, limit: 10 },
  'products:get': { recordId: 'r' },
  'products:versions': { recordId: 'r', hashes: ['h'] },
  'products:export': { filter: {}, format: 'json' },
  'bulk:decide': { jobId: 'job-1', decision: 'approve' },
  'users:list': {},
  'users:add': { name: 'fuzz', displayName: 'Fuzz Fuzzer', role: 'viewer', password: 'a long enough password' },
  'users:update': { id: 'u_none', role: 'viewer' },
  'complaints:list': { consentId: 'c', status: 'open', receivedFrom: '2026-01-01', offset: 0, limit: 10 },
  'complaints:record': complaint,
  'complaints:update': { ...complaint, id: '0b6b1a52-3c1e-4c55-9a0e-0d3f1c2b4a11', version: 1 },
  'complaints:export': { category: 'privacy', format: 'csv' },
  'alerts:list': { limit: 10 },
  'alerts:acknowledge': { id: 'alert-1' },
  'alerts:markRead': { ids: ['alert-1'] },
  'alerts:rules': {},
  'alerts:addRule': { kind: 'webhook-failures', params: { windowMinutes: 60, atLeast: 5 }, enabled: true },
  'alerts:removeRule': { id: 'rule-1' },
  'alerts:silence': { id: 'rule-1', minutes: 60, reason: 'maintenance' },
  'alerts:evaluate': {},
  'alerts:delivery': {},
  'alerts:setDelivery': {
    email: { smtpUrl: 'smtp://mail.example:25', from: 'console@example.com', to: ['ops@example.com'] },
    webhook: { url: 'https://hooks.example/cdr', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
    consoleUrl: 'https://console.example',
  },
  'alerts:testDelivery': { way: 'email' },
  // Inputs the contract takes that still write nothing, whatever part the fuzz leaves valid: a
  // half-year not ended (nothing to prepare or export), a version long gone (a stale change).
  'biannual:list': {},
  'biannual:get': { period: '2026-H1' },
  'biannual:prepare': { period: '2199-H1' },
  'biannual:answer': { period: '2026-H1', version: 99, answers: { entityName: 'Acme', otherMatters: 'None' } },
  'biannual:recount': { period: '2026-H1', version: 99 },
  'biannual:signOff': { period: '2026-H1', version: 99 },
  'biannual:export': { period: '2199-H1', format: 'html' },
};

/**
 * Channels that only read: any input the contract accepts may be sent. Every other channel changes
 * something (the cache, the settings, a job, the intermediary), so only inputs the contract refuses
 * are sent to it: the point is that they are refused, and refused before anything is written.
 */
const READ_ONLY = new Set<Channel>([
  'app:status',
  'consents:list',
  'consents:count',
  'consents:options',
  'consents:ids',
  'consents:resolve',
  'consents:get',
  'reference:list',
  'jobs:list',
  'jobs:items',
  'settings:get',
  'authorization:decode',
  'events:failures',
  'sync:cancel',
  'data:list',
  'audit:list',
  'audit:verify',
  'audit:checkpoint',
  'audit:export',
  'audit:query',
  'audit:options',
  'events:list',
  'events:count',
  'events:days',
  'webhooks:summary',
  'reports:compliance',
  'sync:last',
  'profiles:list',
  'profiles:test',
  'operator:get',
  'data:consents',
  'data:groups',
  'data:meta',
  'data:records',
  'products:list',
  'products:get',
  'products:versions',
]);

/** Stands for a deeply nested value: replaced in the JSON text (JSON.stringify would overflow the stack on it). */
const DEEP = '\u{1F9E8}deep';
const deepJson = fc
  .tuple(fc.integer({ min: 33, max: 50_000 }), fc.boolean())
  .map(([n, arrays]) => (arrays ? `${'['.repeat(n)}1${']'.repeat(n)}` : `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`));

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
const hostileString = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({ unit: fc.oneof(loneSurrogate, fc.constantFrom('\0', 'a', '\u202e', '\ufeff')), minLength: 1, maxLength: 8 }),
  fc.constantFrom(
    '\0',
    'a\0b',
    '\0'.repeat(1000),
    '\ud800',
    'x\udfff',
    'x'.repeat(201),
    'x'.repeat(300_000),
    '\u{1F600}'.repeat(50_000),
    '<script>alert(1)</script>',
    "'; DROP TABLE consents; --",
    '../../etc/passwd',
    '..',
    'NEAR(',
    '"',
    '*',
    'a OR b',
    '-',
    'javascript:alert(1)',
    'file:///etc/passwd',
    '__proto__',
    'constructor',
  ),
);
const scalar = fc.oneof(
  fc.boolean(),
  fc.constant(null),
  fc.integer(),
  fc.double(),
  fc.constantFrom(-1, 0, -0, 1.5, 1e308, -1e308, 2 ** 53 + 2, Number.MAX_SAFE_INTEGER),
);
const hostileKey = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty'),
  hostileString,
);

/** An object with own properties, __proto__ included (an object literal would set the prototype instead). */
function own(entries: [string, unknown][]): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (const [k, v] of entries) Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  return o;
}

const flat = fc.oneof(hostileString, scalar);
const hostile: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: hostileString },
  { weight: 2, arbitrary: scalar },
  { weight: 1, arbitrary: fc.constant(DEEP) },
  { weight: 1, arbitrary: fc.array(flat, { maxLength: 5 }) },
  { weight: 1, arbitrary: fc.array(fc.tuple(hostileKey, flat), { maxLength: 4 }).map(own) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      own([['__proto__', { polluted: true }]]),
      { constructor: { prototype: { polluted: true } } },
      own([['__proto__', null]]),
      [],
      {},
    ),
  },
);

/** Every place in a value where another value could go: [] is the whole of it. */
function paths(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  const here = [at];
  if (Array.isArray(value)) return here.concat(...value.map((v, i) => paths(v, [...at, i])));
  if (value && typeof value === 'object') return here.concat(...Object.entries(value).map(([k, v]) => paths(v, [...at, k])));
  return here;
}

function replaced(value: unknown, path: (string | number)[], by: unknown): unknown {
  if (!path.length) return by;
  const [head, ...rest] = path;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string | number, unknown>;
  copy[head!] = replaced(copy[head!], rest, by);
  return copy;
}

function added(value: unknown, path: (string | number)[], key: string, by: unknown): unknown {
  if (!path.length) {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return own([[key, by]]);
    return own([...Object.entries(value), [key, by]]);
  }
  const [head, ...rest] = path;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string | number, unknown>;
  copy[head!] = added(copy[head!], rest, key, by);
  return copy;
}

/** A hostile input for a channel, as the JSON text of the whole message body's `input`. */
function hostileInput(channel: Channel): fc.Arbitrary<string> {
  const base = BASE[channel];
  const places = paths(base);
  const objects = places.filter((p) => {
    let v: unknown = base;
    for (const k of p) v = (v as Record<string | number, unknown>)[k];
    return v !== null && typeof v === 'object' && !Array.isArray(v);
  });
  return fc
    .oneof(
      hostile,
      fc.tuple(fc.constantFrom(...places), hostile).map(([p, v]) => replaced(base, p, v)),
      fc.tuple(fc.constantFrom(...objects), hostileKey, hostile).map(([p, k, v]) => added(base, p, k, v)),
    )
    .chain((input) => deepJson.map((deep) => JSON.stringify(input).replaceAll(`"${DEEP}"`, deep)));
}

let nextId = 1;
function send(text: string): Promise<{ id: unknown; result: { ok: boolean; error?: { code: string; message: string } } }> {
  const id = nextId++;
  return new Promise((resolve) => {
    ws.on('message', function onMessage(data) {
      const msg = JSON.parse(String(data)) as { id?: unknown; result?: { ok: boolean } };
      if ('result' in msg && (msg.id === id || msg.id === null)) {
        ws.off('message', onMessage);
        resolve(msg as { id: unknown; result: { ok: boolean } });
      }
    });
    ws.send(text.replace('"@@ID@@"', String(id)));
  });
}

function connect(): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${host.port}/ipc`, {
      headers: { origin: `http://127.0.0.1:${host.port}`, cookie: `${SESSION_COOKIE}=${host.token}` },
    });
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** What must not change: the cache as the router shows it, the audit log, settings, and every file but the cache's own. */
async function snapshot(): Promise<Record<string, unknown>> {
  const router = core.router;
  const read = async (channel: Channel, input: unknown) => {
    const e = await router.handle(channel, input, true);
    if (!e.ok) throw new Error(`${channel}: ${e.error.message}`);
    return e.value;
  };
  const files: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      // The SQLite files change on reads too (WAL checkpoints); their content is compared through the router.
      else if (!/cache\.sqlite(-wal|-shm)?$/.test(name) && !name.endsWith('.log'))
        files[relative(dataDir, path)] = readFileSync(path, 'base64');
    }
  };
  walk(dataDir);
  return {
    consents: await read('consents:list', { filter: {}, sort: { field: 'consentId', direction: 'asc' }, offset: 0, limit: 500 }),
    events: await read('events:count', { filter: {} }),
    audit: await read('audit:list', { limit: 500 }),
    verify: await read('audit:verify', {}),
    settings: await read('settings:get', {}),
    operator: await read('operator:get', {}),
    profiles: await read('profiles:list', {}),
    jobs: await read('jobs:list', {}),
    files,
  };
}

let before: Record<string, unknown>;
beforeAll(async () => {
  dataDir = tempDir();
  const staticDir = join(tempDir(), 'ui');
  mkdirSync(staticDir);
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>CDR Console</title>');
  core = await startCore({
    dataDir,
    host: 'browser',
    appVersion: '0',
    log: { info() {}, error: (message: string, error?: unknown) => internalErrors.push(`${message}: ${String(error)}`) },
    sandbox: { consents: 30, clockOrigin: '2026-11-01T00:00:00.000Z' },
  });
  await core.sync();
  // What the console writes by itself once a sync has ended (the last half-year's rule 9.4 report,
  // made by the alert check the sync's end starts) lands before the snapshot, not during the fuzz.
  for (let tries = 0; ; tries++) {
    const e = await core.router.handle('biannual:list', {}, true);
    if (e.ok && (e.value as { reports: unknown[] }).reports.length === 1) break;
    if (tries > 200) throw new Error('the last half-year’s rule 9.4 report was not made after the sync');
    await new Promise((r) => setTimeout(r, 50));
  }
  await core.router.handle('operator:set', { displayName: 'Before the fuzz' }, true);
  host = await startBrowserHost({ router: core.router, events: core.events, staticDir });
  ws = await connect();
  before = await snapshot();
}, 60_000);

afterAll(async () => {
  ws?.close();
  await host?.close();
  await core?.close();
});

describe('IPC fuzz over the browser host', () => {
  let cases = 0;
  it.each(CHANNELS.map((c) => [c]))(
    '%s: every hostile payload is answered, never with an internal error, and refused when the contract refuses it',
    async (channel) => {
      const schema = contract[channel].input;
      await fc.assert(
        fc.asyncProperty(hostileInput(channel), async (inputJson) => {
          const parsed: unknown = JSON.parse(inputJson);
          const valid = inputProblem(parsed) === null && schema.safeParse(parsed).success;
          fc.pre(!valid || READ_ONLY.has(channel));
          cases++;
          const answer = await send(`{"id":"@@ID@@","channel":${JSON.stringify(channel)},"input":${inputJson}}`);
          expect(typeof answer.id).toBe('number');
          if (answer.result.ok) expect(valid).toBe(true);
          else {
            const { code, message } = answer.result.error!;
            expect(['INTERNAL', 'INVALID_OUTPUT', 'TRANSPORT']).not.toContain(code);
            if (!valid) expect(code, message).toBe('INVALID_INPUT');
            expect(message.length).toBeLessThan(1000);
          }
        }),
        { numRuns: RUNS_PER_CHANNEL, maxSkipsPerRun: 1000 },
      );
    },
  );

  it('leaves the host serving, the prototype clean, and nothing written', async () => {
    expect(cases).toBeGreaterThanOrEqual(CHANNELS.length * RUNS_PER_CHANNEL);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(internalErrors).toEqual([]);
    const fresh = await connect();
    try {
      const answer = await new Promise<{ result: { ok: boolean } }>((resolve) => {
        fresh.once('message', (data) => resolve(JSON.parse(String(data)) as { result: { ok: boolean } }));
        fresh.send(JSON.stringify({ id: 1, channel: 'app:status', input: {} }));
      });
      expect(answer.result.ok).toBe(true);
    } finally {
      fresh.close();
    }
    expect(await snapshot()).toEqual(before);
  });
});
