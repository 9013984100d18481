import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';
import { WebSocket } from 'ws';
import { setTimeout as sleep } from 'node:timers/promises';
import { WEBHOOK_FAILURES } from '../../electron/core/events/port.js';
import { writeRemoteProfile } from '../helpers/remote.js';
import { addUserWithCli } from '../helpers/users.js';
import { root, startSandboxProcess } from './procs.js';
import { fmtN, quantile, type RecordRow } from './stats.js';

/**
 * The team server's readers (bench:team, after the sync figures), each console a WebSocket client
 * of a browser host exactly as the renderer is one (the one-run token traded for the session
 * cookie, then /ipc with that cookie and the host's Origin; `{id, channel, input}` out, `{id,
 * result}` and `{event, payload}` in), timed on the client's side:
 *
 * - C consoles (20) reading at once, each in a loop for a fixed time, through a mix of what the
 *   screens read (a window of the consent list, a window of the events, a search by an e-mail prefix,
 *   by a last name inside the e-mails and by a word, one consent's timeline, the webhook failures, the compliance report): p50/p95
 *   per kind and overall, against a team server (PostgreSQL) and, in the same run on the same data,
 *   a solo browser host (SQLite cache);
 * - a revoke in a console of one team server to REVOKED in a console of another server of the same
 *   database: from the revoke's sending to the other console, told by the push (cache:changed),
 *   reading the consent REVOKED;
 * - the serving server's peak and steady RSS at this size, against the same at a smaller one (a
 *   tenth, at most 10,000 consents) under the same load: memory flat as data grows.
 *
 * The servers are the build's bundles (dist/electron/team.mjs, host.mjs: `npm run build`), each
 * in its own process with a profile on the benchmark's sandbox, the team ones on a database of the
 * benchmark's PostgreSQL.
 */
export interface ReadersOptions {
  admin: pg.Client;
  dbUrl: (name: string) => string;
  sandboxUrl: string;
  consents: number;
  eventsPerConsent: number;
  /** Consoles reading at once. */
  clients: number;
  /** How long they read, per server. */
  seconds: number;
  revokes: number;
  /**
   * A person's pace: each console asks again this long (on average; uniform from half to one and a
   * half times) after its answer. The figures at this pace are the ones judged against 50 ms beside
   * the same consoles asking back to back, with no pause (a stress load, also judged).
   */
  thinkMs: number;
  /** The smaller size the memory figure compares with. */
  smallConsents: number;
  work: string;
  row: RecordRow;
}

const now = () => performance.now();
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---- a server: team (PostgreSQL) or solo (SQLite), the build's bundle in its own process
export interface ServerProcess {
  pid: number;
  launchUrl: string;
  output(): string;
  /** Resident and peak resident set of the process, MiB (Linux: /proc; NaN elsewhere). */
  memory(): { rssMB: number; peakMB: number };
  stop(): Promise<void>;
}

export function startServer(kind: 'team' | 'solo', dataDir: string, args: string[], sync: boolean): Promise<ServerProcess> {
  const child = spawn(
    process.execPath,
    [
      join(root, kind === 'team' ? 'dist/electron/team.mjs' : 'dist/electron/host.mjs'),
      '--port',
      '0',
      '--data-dir',
      dataDir,
      '--sync-every',
      '0',
      ...(sync ? [] : ['--no-sync']),
      ...args,
    ],
    {
      cwd: root,
      env: { ...process.env, CDR_CONSOLE_DATA_DIR: '', CDR_CONSOLE_CLIENT_SECRET: 'sandbox-secret' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      // A team server signs people in (no token in its address); the solo host prints its one-run token.
      const url = /CDR Console (?:team server )?at (http:\/\/127\.0\.0\.1:\d+\/(?:\?token=\S+)?)/.exec(out)?.[1];
      if (!url) return;
      if (/Initial sync failed/.test(out)) return reject(new Error(`the ${kind} server's first sync failed:\n${out}`));
      if (sync && !/Synced \d+ consents/.test(out)) return;
      child.stdout!.off('data', onData);
      child.stderr!.off('data', onData);
      child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
      resolve({
        pid: child.pid!,
        launchUrl: url,
        output: () => out,
        memory: () => procMemory(child.pid!),
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the ${kind} server exited with ${code}:\n${out}`)));
  });
}

export const BENCH_USER = { name: 'bench-reader', password: 'bench-reader password 1' };
const sessions = new Map<string, Promise<string>>();
function sessionOf(launchUrl: string): Promise<string> {
  let s = sessions.get(launchUrl);
  if (!s) {
    s = (async () => {
      const withToken = new URL(launchUrl).searchParams.has('token');
      const res = withToken
        ? await fetch(launchUrl, { redirect: 'manual' })
        : await fetch(new URL('/api/signin', launchUrl), {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ user: BENCH_USER.name, password: BENCH_USER.password }),
          });
      const cookie = res.headers.get('set-cookie')?.split(';')[0];
      const body = await res.text();
      if (res.status !== (withToken ? 303 : 200) || !cookie) throw new Error(`sign-in refused: ${res.status} ${body.slice(0, 200)}`);
      return cookie;
    })();
    sessions.set(launchUrl, s);
  }
  return s;
}

/** Adds the benchmark's reader to a team server's store (the command line, as an admin would). */
const addBenchUser = (dataDir: string, db: string[]) =>
  addUserWithCli(dataDir, { name: BENCH_USER.name, displayName: 'Bench Reader', role: 'support', password: BENCH_USER.password }, db);

/** CPU time the process has used so far, ms (Linux: /proc, in clock ticks of 10 ms; NaN elsewhere). */
function procCpuMs(pid: number): number {
  const file = `/proc/${pid}/stat`;
  if (!existsSync(file)) return Number.NaN;
  // The fields after the command's name (which may hold spaces): state is the 3rd, utime the 14th, stime the 15th.
  const fields = readFileSync(file, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export function procMemory(pid: number): { rssMB: number; peakMB: number } {
  const file = `/proc/${pid}/status`;
  if (!existsSync(file)) return { rssMB: Number.NaN, peakMB: Number.NaN };
  const status = readFileSync(file, 'utf8');
  const kB = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rssMB: kB('VmRSS') / 1024, peakMB: kB('VmHWM') / 1024 };
}

// ---- a console: the renderer's side of the WebSocket
type Envelope = { ok: true; value: unknown } | { ok: false; error: { code: string; message: string } };

export class Console {
  private nextId = 1;
  private readonly pending = new Map<number, (result: Envelope) => void>();
  private readonly listeners = new Set<(event: string, payload: unknown) => void>();
  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const msg = JSON.parse(String(data)) as { id?: number; result?: Envelope; event?: string; payload?: unknown };
      if (msg.event !== undefined) for (const l of this.listeners) l(msg.event, msg.payload);
      else if (typeof msg.id === 'number') {
        this.pending.get(msg.id)?.(msg.result!);
        this.pending.delete(msg.id);
      }
    });
  }

  /**
   * Signs in as a browser does, then opens /ipc: on the solo host the printed URL's token for the
   * session cookie; on a team server the benchmark's user and password (once per server: the
   * consoles of one reader share a session, as a person's tabs do, and sign-in stays within its
   * rate limit).
   */
  static async open(launchUrl: string): Promise<Console> {
    const origin = new URL(launchUrl).origin;
    const cookie = await sessionOf(launchUrl);
    const ws = new WebSocket(`${origin.replace(/^http/, 'ws')}/ipc`, { headers: { cookie, origin } });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    ws.on('error', () => {});
    return new Console(ws);
  }

  /** The answer's value (an error answer throws), and the time from sending to the answer read and parsed. */
  async request<T = unknown>(channel: string, input: unknown): Promise<{ value: T; ms: number }> {
    const id = this.nextId++;
    const t = now();
    const result = await new Promise<Envelope>((resolve) => {
      this.pending.set(id, resolve);
      this.ws.send(JSON.stringify({ id, channel, input }));
    });
    const ms = now() - t;
    if (!result.ok) throw new Error(`${channel}: ${result.error.code} ${result.error.message}`);
    return { value: result.value as T, ms };
  }

  on(listener: (event: string, payload: unknown) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    this.ws.close();
  }
}

// ---- what the screens read
export interface Kind {
  name: string;
  channel: string;
  input(random: () => number): unknown;
}

/** A small deterministic generator (mulberry32), one per console, so every run asks the same things. */
export function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type ListRow = { consentId: string; consumerEmail: string | null; dataHolderName: string | null; useCaseName: string | null };

/** The mix, from what this server holds (one console asks: totals, a spread of consents, the newest event). */
export async function kindsOf(c: Console): Promise<Kind[]> {
  const total = (await c.request<{ total: number }>('consents:count', { filter: {} })).value.total;
  const eventTotal = (await c.request<{ total: number }>('events:count', { filter: {} })).value.total;
  // Ordered by id (random): a spread over the whole list.
  const sample = (
    await c.request<{ rows: ListRow[] }>('consents:list', {
      filter: {},
      sort: { field: 'consentId', direction: 'asc' },
      offset: 0,
      limit: 500,
    })
  ).value.rows;
  const newest = (await c.request<{ rows: { timestamp: string }[] }>('events:list', { filter: {}, offset: 0, limit: 1 })).value.rows[0];
  const at = newest ? Date.parse(newest.timestamp) : Date.now();
  const emails = sample.map((r) => r.consumerEmail).filter((e): e is string => !!e && e.length >= 6);
  const words = [
    ...new Set(
      sample.flatMap((r) =>
        `${r.dataHolderName ?? ''} ${r.useCaseName ?? ''}`
          .toLowerCase()
          .split(/[^a-z]+/)
          .filter((w) => w.length >= 4),
      ),
    ),
  ].slice(0, 12);
  const ids = sample.map((r) => r.consentId);
  const int = (r: () => number, n: number) => Math.floor(r() * Math.max(1, n));
  const pick = <T>(r: () => number, xs: readonly T[]) => xs[int(r, xs.length)]!;
  const window = { sort: { field: 'created', direction: 'desc' }, offset: 0, limit: 100 };
  return [
    {
      name: 'consent list: a window of 100 (newest first, anywhere in the list)',
      channel: 'consents:list',
      input: (r) => ({ ...window, filter: {}, offset: int(r, total - 100) }),
    },
    {
      name: 'events: a window of 100 (anywhere in the list)',
      channel: 'events:list',
      input: (r) => ({ filter: {}, offset: int(r, eventTotal - 100), limit: 100 }),
    },
    {
      name: 'search: an e-mail prefix (6 characters), first 100',
      channel: 'consents:list',
      input: (r) => ({ ...window, filter: { search: emails.length ? pick(r, emails).slice(0, 6) : 'a' } }),
    },
    {
      name: 'search anywhere: a last name inside the e-mails, first 100',
      channel: 'consents:list',
      input: (r) => ({ ...window, filter: { search: emails.length ? (pick(r, emails).split('.')[1] ?? 'smith') : 'smith' } }),
    },
    {
      name: 'search: a word (a data holder’s or use case’s), first 100',
      channel: 'consents:list',
      input: (r) => ({ ...window, filter: { search: words.length ? pick(r, words) : 'bank' } }),
    },
    {
      name: 'timeline: one consent (consents:get: versions, events, staff actions)',
      channel: 'consents:get',
      input: (r) => ({ consentId: pick(r, ids) }),
    },
    {
      name: 'webhook failures: grouped by message and by consent, all',
      channel: 'webhooks:summary',
      input: () => ({ filter: { types: [...WEBHOOK_FAILURES] } }),
    },
    {
      name: 'compliance report: 90 days',
      channel: 'reports:compliance',
      input: () => ({ from: new Date(at - 90 * 86_400_000).toISOString(), to: new Date(at).toISOString() }),
    },
  ];
}

interface LoadResult {
  /** Client-side latencies per kind, ms. */
  byKind: Map<string, number[]>;
  requests: number;
  seconds: number;
  /** The serving process's resident set, sampled during the load (MiB), and its peak at the end. */
  rssSamples: number[];
  peakMB: number;
  /** CPU time of the serving process and of this one (the consoles) during the load, ms. */
  serverCpuMs: number;
  clientCpuMs: number;
  /** The same kinds asked by one console alone, one request at a time (what a request costs without the others). */
  alone: Map<string, number[]>;
  /** How long the server took to answer a round of every kind under SETTLED_MS, before anything was timed. */
  settledMs: number;
}

/** A server is settled when one console's round of every kind has no answer slower than this. */
const SETTLED_MS = 250;

/** `clients` consoles, each asking the mix in turn (each from a different place in it) for `seconds`. */
async function readLoad(server: ServerProcess, clients: number, seconds: number, thinkMs = 0): Promise<LoadResult> {
  const first = await Console.open(server.launchUrl);
  const kinds = await kindsOf(first);
  // Untimed until settled: the first calls of each (code paths, statement plans, a host's indexes
  // built after its sync) are not what 20 people see all day. Rounds of every kind until one round's
  // slowest answer is under SETTLED_MS (at most a minute); how long that took is reported.
  const settling = now();
  const warm = generator(0);
  for (let round = 0; ; round++) {
    let slowest = 0;
    for (const k of kinds) slowest = Math.max(slowest, (await first.request(k.channel, k.input(warm))).ms);
    if ((round > 0 && slowest < SETTLED_MS) || now() - settling > 60_000) break;
  }
  const settledMs = now() - settling;
  const consoles = [first, ...(await Promise.all(Array.from({ length: clients - 1 }, () => Console.open(server.launchUrl))))];
  // One console alone first, a quarter of the time: the cost of each request without contention.
  const alone = new Map(kinds.map((k) => [k.name, [] as number[]]));
  const random0 = generator(0);
  for (let n = 0, end = now() + (seconds * 1000) / 4; now() < end; n++) {
    const kind = kinds[n % kinds.length]!;
    alone.get(kind.name)!.push((await first.request(kind.channel, kind.input(random0))).ms);
  }
  const byKind = new Map(kinds.map((k) => [k.name, [] as number[]]));
  const rssSamples: number[] = [];
  const cpu0 = { server: procCpuMs(server.pid), client: process.cpuUsage() };
  const sampler = setInterval(() => rssSamples.push(server.memory().rssMB), 250);
  const started = now();
  const deadline = started + seconds * 1000;
  let requests = 0;
  try {
    await Promise.all(
      consoles.map(async (c, i) => {
        const random = generator(i + 1);
        for (let n = i; now() < deadline; n++) {
          const kind = kinds[n % kinds.length]!;
          const { ms } = await c.request(kind.channel, kind.input(random));
          byKind.get(kind.name)!.push(ms);
          requests++;
          if (thinkMs > 0) await sleep(thinkMs * (0.5 + random()));
        }
      }),
    );
  } finally {
    clearInterval(sampler);
    for (const c of consoles) c.close();
  }
  const clientCpu = process.cpuUsage(cpu0.client);
  return {
    byKind,
    requests,
    seconds: (now() - started) / 1000,
    rssSamples,
    peakMB: server.memory().peakMB,
    serverCpuMs: procCpuMs(server.pid) - cpu0.server,
    clientCpuMs: (clientCpu.user + clientCpu.system) / 1000,
    alone,
    settledMs,
  };
}

// ---- a revoke in one console, REVOKED in another (another server of the same database)
async function revokeToRevoked(one: ServerProcess, other: ServerProcess, count: number): Promise<{ seen: number[]; answered: number[] }> {
  const a = await Console.open(one.launchUrl);
  const b = await Console.open(other.launchUrl);
  const seen: number[] = [];
  const answered: number[] = [];
  try {
    const { rows } = (
      await a.request<{ rows: ListRow[] }>('consents:list', {
        filter: { statuses: ['ACTIVE'] },
        sort: { field: 'consentId', direction: 'asc' },
        offset: 0,
        limit: Math.min(500, count),
      })
    ).value;
    if (rows.length < count) throw new Error(`only ${rows.length} ACTIVE consents to revoke, ${count} wanted`);
    for (const { consentId } of rows) {
      // Every push about consents that reaches B, from now on (subscribed before the revoke is sent).
      let pushes = 0;
      let wake: (() => void) | undefined;
      const off = b.on((event, payload) => {
        if (event !== 'cache:changed' || (payload as { entity?: string }).entity !== 'consents') return;
        pushes++;
        wake?.();
      });
      try {
        const t0 = now();
        const revoke = a.request('consents:revoke', { consentId, reason: 'Benchmark: a revoke seen in another console' });
        revoke.catch(() => undefined); // awaited below; not an unhandled rejection meanwhile
        let checked = 0;
        let revoked = false;
        while (!revoked) {
          // As the console does: a push, then it reads the consent again.
          if (pushes === checked)
            await new Promise<void>((resolve, reject) => {
              const timer = setTimeout(() => reject(new Error(`no push about ${consentId} reached the other console in 10 s`)), 10_000);
              wake = () => {
                clearTimeout(timer);
                resolve();
              };
            });
          wake = undefined;
          checked = pushes;
          const detail = await b.request<{ consent: { status?: string } }>('consents:get', { consentId });
          revoked = detail.value.consent.status === 'REVOKED';
        }
        seen.push(now() - t0);
        answered.push((await revoke).ms);
      } finally {
        off();
      }
      await wait(100);
    }
  } finally {
    a.close();
    b.close();
  }
  return { seen, answered };
}

// ---- the setup: a team of two servers on one database, and a solo host, on the same sandbox
async function teamPair(o: ReadersOptions, name: string, sandboxUrl: string, withSolo: boolean) {
  await o.admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await o.admin.query(`CREATE DATABASE ${name}`);
  const dataDir = join(o.work, name);
  mkdirSync(dataDir, { recursive: true });
  writeRemoteProfile(dataDir, sandboxUrl, { name: 'Benchmark sandbox' });
  writeFileSync(join(dataDir, 'operator.json'), JSON.stringify({ displayName: 'Bench Reader' }));
  const db = ['--database-url', o.dbUrl(name)];
  const servers: ServerProcess[] = [];
  const stop = () => Promise.all(servers.map((s) => s.stop()));
  try {
    let t = now();
    const syncing = await startServer('team', dataDir, db, true);
    servers.push(syncing);
    await addBenchUser(dataDir, db);
    console.log(`  team server 1 (syncs at start): ${Math.round(now() - t)} ms to serve, synced`);
    t = now();
    const serving = await startServer('team', dataDir, db, false);
    servers.push(serving);
    console.log(`  team server 2 (--no-sync, the one read): ${Math.round(now() - t)} ms to serve`);
    let solo: ServerProcess | undefined;
    if (withSolo) {
      const soloDir = join(o.work, `${name}-solo`);
      mkdirSync(soloDir, { recursive: true });
      writeRemoteProfile(soloDir, sandboxUrl, { name: 'Benchmark sandbox' });
      writeFileSync(join(soloDir, 'operator.json'), JSON.stringify({ displayName: 'Bench Reader' }));
      t = now();
      solo = await startServer('solo', soloDir, [], true);
      servers.push(solo);
      console.log(`  solo browser host (SQLite, syncs at start): ${Math.round(now() - t)} ms to serve, synced`);
    }
    return { syncing, serving, solo, stop, drop: () => o.admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
  } catch (error) {
    await stop();
    throw error;
  }
}

const ms = (n: number) => `${n.toFixed(n < 10 ? 1 : 0)} ms`;

export async function readersBench(o: ReadersOptions): Promise<void> {
  if (!existsSync(join(root, 'dist/electron/team.mjs')) || !existsSync(join(root, 'dist/renderer/index.html')))
    throw new Error('the readers need the build (dist/electron/team.mjs, host.mjs, dist/renderer): run npm run build');
  const { row, clients, seconds } = o;
  console.log(`\nreaders: ${clients} consoles for ${seconds} s on each server; ${o.revokes} revokes seen across two team servers`);
  await fetch(`${o.sandboxUrl}/__sandbox/reset`, { method: 'POST' });

  const big = await teamPair(o, 'readers', o.sandboxUrl, true);
  let team: LoadResult;
  let solo: LoadResult;
  let teamStress: LoadResult;
  let soloStress: LoadResult;
  let revokes: Awaited<ReturnType<typeof revokeToRevoked>>;
  try {
    console.log(
      ` ${clients} consoles reading the team server, each at a person's pace (${o.thinkMs} ms between an answer and the next request, on average)`,
    );
    team = await readLoad(big.serving, clients, seconds, o.thinkMs);
    console.log(`  ${fmtN(team.requests)} requests in ${team.seconds.toFixed(1)} s`);
    console.log(` ${clients} consoles reading the solo browser host, at the same pace`);
    solo = await readLoad(big.solo!, clients, seconds, o.thinkMs);
    console.log(`  ${fmtN(solo.requests)} requests in ${solo.seconds.toFixed(1)} s`);
    console.log(` ${clients} consoles asking back to back (no pause): team server, then solo host`);
    teamStress = await readLoad(big.serving, clients, seconds);
    soloStress = await readLoad(big.solo!, clients, seconds);
    console.log(`  ${fmtN(teamStress.requests)} requests (solo ${fmtN(soloStress.requests)}) in ${teamStress.seconds.toFixed(1)} s`);
    console.log(` ${o.revokes} revokes in a console of server 1, each awaited as REVOKED in a console of server 2`);
    revokes = await revokeToRevoked(big.syncing, big.serving, o.revokes);
  } finally {
    await big.stop();
    await big.drop();
  }

  // The same team, the same load, at the smaller size: its own sandbox and database.
  console.log(`\nthe same at ${fmtN(o.smallConsents)} consents × ${o.eventsPerConsent} events (memory as data grows)`);
  const smallSandbox = await startSandboxProcess(o.smallConsents, o.eventsPerConsent);
  let small: LoadResult;
  try {
    const pair = await teamPair(o, 'readers_small', smallSandbox.url, false);
    try {
      small = await readLoad(pair.serving, clients, seconds);
      console.log(`  ${fmtN(small.requests)} requests in ${small.seconds.toFixed(1)} s`);
    } finally {
      await pair.stop();
      await pair.drop();
    }
  } finally {
    await smallSandbox.stop();
  }

  // ---- figures
  const all = (m: Map<string, number[]>) => [...m.values()].flat();
  const p = (xs: number[], q: number) => quantile(xs, q);
  const soloWhat = `the same on a solo browser host (SQLite cache), same data, same run, p95`;
  row(
    `${clients} consoles reading at once from a team server (PostgreSQL), each at a person's pace: every request, p95`,
    [p(all(team.byKind), 0.95)],
    'ms',
    {
      baseline: { what: soloWhat, values: [p(all(solo.byKind), 0.95)] },
      target: { on: 'value', op: '≤', limit: 50 },
      note: `p50 ${ms(p(all(team.byKind), 0.5))} (solo ${ms(p(all(solo.byKind), 0.5))}); ${fmtN(team.requests)} requests in ${team.seconds.toFixed(0)} s (solo ${fmtN(solo.requests)}); each console asks again ${o.thinkMs / 2}–${(o.thinkMs * 3) / 2} ms after its answer; timed once each server answered a round of every kind under ${SETTLED_MS} ms (the team server after ${(team.settledMs / 1000).toFixed(1)} s, the solo host after ${(solo.settledMs / 1000).toFixed(1)} s)`,
    },
  );
  row(
    `${clients} consoles reading at once from a team server, asking back to back (stress): every request, p95`,
    [p(all(teamStress.byKind), 0.95)],
    'ms',
    {
      baseline: { what: soloWhat.replace(', p95', ', back to back, p95'), values: [p(all(soloStress.byKind), 0.95)] },
      target: { on: 'value', op: '≤', limit: 50 },
      note:
        `p50 ${ms(p(all(teamStress.byKind), 0.5))} (solo ${ms(p(all(soloStress.byKind), 0.5))}); ${fmtN(teamStress.requests)} requests in ${teamStress.seconds.toFixed(0)} s (solo ${fmtN(soloStress.requests)}), ` +
        `each console asking again as soon as answered; CPU per request: the serving process ${ms(teamStress.serverCpuMs / teamStress.requests)} (solo ${ms(soloStress.serverCpuMs / soloStress.requests)}), ` +
        `the consoles' process ${ms(teamStress.clientCpuMs / teamStress.requests)}; one console alone: p95 ${ms(p(all(team.alone), 0.95))} (solo ${ms(p(all(solo.alone), 0.95))}); ` +
        `at ${fmtN(o.smallConsents)} consents: p95 ${ms(p(all(small.byKind), 0.95))}; client side, over the host's WebSocket`,
    },
  );
  for (const [kind, values] of team.byKind) {
    const soloValues = solo.byKind.get(kind) ?? [];
    row(`${clients} consoles, team server: ${kind}, p95`, [p(values, 0.95)], 'ms', {
      baseline: { what: soloWhat, values: [p(soloValues, 0.95)] },
      target: { on: 'value', op: '≤', limit: 50 },
      note: `p50 ${ms(p(values, 0.5))} (solo ${ms(p(soloValues, 0.5))}); ${fmtN(values.length)} requests (solo ${fmtN(soloValues.length)}); one console alone: p95 ${ms(p(team.alone.get(kind) ?? [], 0.95))} (solo ${ms(p(solo.alone.get(kind) ?? [], 0.95))}); at ${fmtN(o.smallConsents)} consents: p95 ${ms(p(small.byKind.get(kind) ?? [], 0.95))}`,
    });
  }
  row('a revoke in one console to REVOKED in another (another team server, same database), p95', [p(revokes.seen, 0.95)], 'ms', {
    baseline: { what: 'the revoke’s own answer in the first console, p95', values: [p(revokes.answered, 0.95)] },
    target: { on: 'value', op: '≤', limit: 1000 },
    note: `p50 ${ms(p(revokes.seen, 0.5))}, max ${ms(Math.max(...revokes.seen))}, over ${revokes.seen.length} revokes: from sending consents:revoke to the other console, told by cache:changed, reading the consent REVOKED (the renderer waits up to 400 ms after a push before it reads again, not counted)`,
  });
  const median = (xs: number[]) => p(xs.filter(Number.isFinite), 0.5);
  const sizes = `${fmtN(o.consents)} consents × ${o.eventsPerConsent} events`;
  const smallWhat = (what: string) =>
    `the same at ${fmtN(o.smallConsents)} consents × ${o.eventsPerConsent} events (${what}), same load, same run`;
  row(`team server serving ${clients} consoles at ${sizes}: peak RSS`, [team.peakMB], 'MiB', {
    baseline: { what: smallWhat('peak RSS'), values: [small.peakMB] },
    target: { on: 'ratio', op: '≤', limit: 1.25 },
    note: 'the server that did not sync (--no-sync; the other one synced): its start and its readers',
  });
  row(`team server serving ${clients} consoles at ${sizes}: steady RSS`, [median(team.rssSamples)], 'MiB', {
    baseline: { what: smallWhat('steady RSS'), values: [median(small.rssSamples)] },
    target: { on: 'ratio', op: '≤', limit: 1.25 },
    note: `median of the resident set sampled every 250 ms while the consoles read (max ${Math.round(Math.max(...team.rssSamples))} MiB; at the smaller size ${Math.round(Math.max(...small.rssSamples))} MiB)`,
  });
}
