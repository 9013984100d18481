import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { childScript } from '../helpers/ts-child.js';
import { WebSocket } from 'ws';
import { websocketTransport } from '../../renderer/src/bridge/websocket-transport.js';
import { frame, rawUpgrade, type RawConnection } from '../helpers/raw-ws.js';
import { tempDir } from '../helpers/temp.js';

/**
 * The browser host in its own process, attacked the way issue 12 did it: every malformed frame,
 * an oversized message, a flood of requests from a client that never reads. Each time, only the
 * offending connection ends (with a close code and a reason); the process and the other
 * connections go on, and its memory stays bounded.
 */

const root = join(import.meta.dirname, '..', '..');
let child: ChildProcess;
let port: number;
let headers: { cookie: string; origin: string };
const logLines: string[] = [];
const logWaiters: { pattern: RegExp; resolve: (line: string) => void }[] = [];
let rssWaiter: ((bytes: number) => void) | undefined;
let exited: string | undefined;

/** Waits for the host to log a line matching pattern (seen before or after the call). */
function logged(pattern: RegExp): Promise<string> {
  const seen = logLines.find((l) => pattern.test(l));
  if (seen) return Promise.resolve(seen);
  return new Promise((resolve) => logWaiters.push({ pattern, resolve }));
}

function rss(): Promise<number> {
  return new Promise((resolve) => {
    rssWaiter = resolve;
    child.stdin!.write('rss\n');
  });
}

beforeAll(async () => {
  const base = tempDir();
  const staticDir = join(base, 'ui');
  mkdirSync(staticDir);
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>CDR Console</title>');
  // 2,000 audit entries: each audit:export answer is about 0.9 MB, as in the report. A client that
  // does not read is closed after 2 s without progress (30 s by default).
  child = spawn(process.execPath, [childScript('test/helpers/host-child.ts'), join(base, 'data'), staticDir, '2000', '2000'], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  child.on('exit', (code, signal) => (exited = `exited with ${code ?? signal}`));
  const ready = new Promise<{ port: number; token: string }>((resolve, reject) => {
    child.once('exit', () => reject(new Error('the host child exited before it was ready')));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith('{')) resolve(JSON.parse(line) as { port: number; token: string });
      else if (line.startsWith('rss ')) rssWaiter?.(Number(line.slice(4)));
      else if (line.startsWith('log ')) {
        logLines.push(line.slice(4));
        for (const w of [...logWaiters])
          if (w.pattern.test(line)) {
            logWaiters.splice(logWaiters.indexOf(w), 1);
            w.resolve(line.slice(4));
          }
      }
    });
  });
  const info = await ready;
  port = info.port;
  headers = { cookie: `cdr_console_session=${info.token}`, origin: `http://127.0.0.1:${port}` };
}, 60_000);

afterAll(async () => {
  if (exited) return;
  const gone = new Promise((r) => child.once('exit', r));
  child.stdin!.end();
  await gone;
});

function open(): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ipc`, { headers });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

let nextId = 1;
function call(
  ws: WebSocket,
  channel: string,
  input: unknown,
): Promise<{ ok: boolean; value?: unknown; error?: { code: string; message: string } }> {
  const id = nextId++;
  return new Promise((resolve) => {
    ws.on('message', function onMessage(data) {
      const msg = JSON.parse(String(data)) as { id?: unknown; result?: { ok: boolean } };
      if (msg.id === id) {
        ws.off('message', onMessage);
        resolve(msg.result as { ok: boolean });
      }
    });
    ws.send(JSON.stringify({ id, channel, input }));
  });
}

/** The process is alive and a new connection's IPC request is answered. */
async function expectHostAnswers(): Promise<void> {
  expect(exited).toBeUndefined();
  const ws = await open();
  try {
    expect(await call(ws, 'app:status', {})).toMatchObject({ ok: true, value: { host: 'browser' } });
  } finally {
    ws.close();
  }
}

/** Sends bytes after a real upgrade and returns how the server closed the connection. */
async function attack(...chunks: Buffer[]): Promise<{ code: number | null; reason: string }> {
  const conn = await rawUpgrade(port, headers);
  for (const c of chunks) conn.socket.write(c);
  const closed = await conn.closed;
  conn.socket.destroy();
  return closed;
}

describe('browser host under malformed frames', () => {
  let bystander: WebSocket;
  beforeAll(async () => {
    bystander = await open();
  });
  afterAll(() => bystander.close());

  it('closes a message over the size limit with 1009 and says why', async () => {
    // The header alone announces 5 MiB: refused before the body is read.
    const closed = await attack(frame(0x1, Buffer.alloc(1024, 'a'), { declaredLength: 5 * 1024 * 1024 }));
    expect(closed).toEqual({ code: 1009, reason: expect.stringMatching(/Message too big: the limit is 4\.0 MiB/) as unknown as string });
    await expectHostAnswers();
  });

  it('closes a text frame holding invalid UTF-8 with 1007', async () => {
    const closed = await attack(frame(0x1, Buffer.from([0x7b, 0xff, 0xfe, 0x7d])));
    expect(closed.code).toBe(1007);
    expect(closed.reason).toMatch(/Invalid UTF-8/);
    await expectHostAnswers();
  });

  it('closes an unknown opcode, an unmasked frame and out-of-order fragments with 1002', async () => {
    for (const bytes of [
      frame(0x3, '{}'), // reserved data opcode
      frame(0xb, '{}'), // reserved control opcode
      frame(0x1, '{"id":1,"channel":"app:status","input":{}}', { mask: false }), // clients must mask
      frame(0x0, 'continuation of nothing'),
      Buffer.concat([frame(0x1, '{"id":', { fin: false }), frame(0x1, '1}')]), // a new message inside a fragmented one
      frame(0x9, Buffer.alloc(126)), // a ping longer than a control frame may be
      Buffer.from([0xf1, 0x85, 1, 2, 3, 4, 5, 6, 7, 8, 9]), // RSV bits set without an extension
    ]) {
      const closed = await attack(bytes);
      expect(closed.code).toBe(1002);
      expect(closed.reason).toMatch(/protocol error/);
    }
    await expectHostAnswers();
  });

  it('answers a binary frame and garbage JSON with a TRANSPORT envelope and keeps the connection', async () => {
    const conn: RawConnection = await rawUpgrade(port, headers);
    try {
      conn.socket.write(frame(0x2, '{"id":1,"channel":"app:status","input":{}}'));
      expect(await conn.nextAnswer()).toMatchObject({ id: null, result: { ok: false, error: { code: 'TRANSPORT' } } });
      for (const text of ['null', '[1,2]', '"str"', '{"id":"1"}', '{"id":1.5}', '{'.repeat(10_000)]) {
        conn.socket.write(frame(0x1, text));
        expect(await conn.nextAnswer()).toMatchObject({ id: null, result: { ok: false, error: { code: 'TRANSPORT' } } });
      }
      // A fragmented message put together properly is fine.
      conn.socket.write(Buffer.concat([frame(0x1, '{"id":7,"chan', { fin: false }), frame(0x0, 'nel":"app:status","input":{}}')]));
      expect(await conn.nextAnswer()).toMatchObject({ id: 7, result: { ok: true } });
    } finally {
      conn.socket.destroy();
    }
  });

  it('survives connections cut mid-frame, mid-upgrade, and noise', async () => {
    const half = await rawUpgrade(port, headers);
    half.socket.write(frame(0x1, 'x'.repeat(100)).subarray(0, 20));
    half.socket.destroy();
    const reset = await rawUpgrade(port, headers);
    reset.socket.resetAndDestroy();
    const noise = await attack(Buffer.from(Array.from({ length: 64 }, (_, i) => (i * 37 + 11) & 0xff)));
    expect([1002, 1009, 1007]).toContain(noise.code);
    await expectHostAnswers();
  });

  it('kept the other connection open through all of it', async () => {
    expect(bystander.readyState).toBe(WebSocket.OPEN);
    expect(await call(bystander, 'app:status', {})).toMatchObject({ ok: true });
    expect(logLines.some((l) => /closed: .*(Max payload size exceeded|invalid UTF-8|opcode)/i.test(l))).toBe(true);
  });
});

describe('browser host limits per connection', () => {
  it('answers requests beyond 64 in flight on one connection with BUSY, and serves the rest', async () => {
    const conn = await rawUpgrade(port, headers);
    try {
      // 150 connection tests (each a token and a call to the sandbox) in one write: they arrive together.
      const count = 150;
      const answers = Array.from({ length: count }, () => conn.nextAnswer());
      conn.socket.write(
        Buffer.concat(
          Array.from({ length: count }, (_, i) => frame(0x1, JSON.stringify({ id: i + 1, channel: 'profiles:test', input: {} }))),
        ),
      );
      const results = await Promise.all(answers);
      expect(new Set(results.map((r) => r.id)).size).toBe(count);
      const busy = results.filter((r) => !r.result.ok);
      expect(busy.length).toBeGreaterThan(0);
      for (const r of busy) {
        expect(r.result.error).toMatchObject({ code: 'BUSY' });
        expect(r.result.error!.message).toMatch(/Too many requests at once on this connection \(64\)/);
      }
      expect(results.filter((r) => r.result.ok).length).toBeGreaterThanOrEqual(64);
      // Once answered, the connection takes requests again.
      conn.socket.write(frame(0x1, JSON.stringify({ id: 999, channel: 'app:status', input: {} })));
      expect(await conn.nextAnswer()).toMatchObject({ id: 999, result: { ok: true } });
    } finally {
      conn.socket.destroy();
    }
  });

  it('stops reading a client that pipelines 3,000 audit exports without reading, closes it with a reason, and stays small', async () => {
    const before = await rss();
    const flood = await open();
    flood.pause(); // never reads what the host answers
    const answers: { ok: boolean; error?: { code: string } }[] = [];
    flood.on('message', (data) => answers.push((JSON.parse(String(data)) as { result: { ok: boolean } }).result));
    const closed = new Promise<{ code: number; reason: string }>((r) =>
      flood.once('close', (code, reason) => r({ code, reason: String(reason) })),
    );
    for (let i = 1; i <= 3000; i++) flood.send(JSON.stringify({ id: i, channel: 'audit:export', input: { format: 'json' } }));

    expect(await logged(/paused: \d+ bytes of answers not yet read/)).toBeTruthy();
    // While that connection is held back, another one is served.
    await expectHostAnswers();
    expect(await logged(/closed: \d+ bytes of answers left unread for 2000 ms/)).toBeTruthy();
    const during = await rss();
    await expectHostAnswers();

    // The flooding client finally reads: the answers it was given, then the close with its reason.
    flood.resume();
    expect(await closed).toEqual({ code: 1008, reason: 'Answers left unread: connection closed to bound the host memory' });
    expect(answers.length).toBeLessThan(3000);
    for (const a of answers) expect(a.ok || a.error?.code === 'BUSY').toBe(true);
    expect(answers.filter((a) => a.ok).length).toBeGreaterThan(0);
    // Unbounded, this flood took the host from ~130 MB to over 3 GB; bounded, it stays within a few hundred MB.
    expect(during - before).toBeLessThan(600 * 1024 * 1024);
    await expectHostAnswers();
  });

  it('takes a bulk revocation of 10,000 ids of 200 characters (2 MB) as a job over the socket', async () => {
    const ws = await open();
    try {
      const ids = Array.from({ length: 10_000 }, (_, i) => `bulk-${String(i).padStart(6, '0')}-${'x'.repeat(188)}`);
      expect(ids.every((id) => id.length === 200)).toBe(true);
      const message = JSON.stringify({ consentIds: ids, reason: 'Hardening test: a large bulk revocation' });
      expect(message.length).toBeGreaterThan(2_000_000);
      const started = await call(ws, 'bulk:revoke', { consentIds: ids, reason: 'Hardening test: a large bulk revocation', perSecond: 0.1 });
      expect(started).toMatchObject({ ok: true, value: { jobId: expect.any(String) as unknown as string } });
      const jobId = (started.value as { jobId: string }).jobId;
      const jobs = await call(ws, 'jobs:list', {});
      expect((jobs.value as { jobId: string; total: number; kind: string }[]).find((j) => j.jobId === jobId)).toMatchObject({
        kind: 'bulk-revoke',
        total: 10_000,
      });
      expect(await call(ws, 'jobs:control', { jobId, action: 'cancel' })).toMatchObject({ ok: true });
      for (;;) {
        const listed = (await call(ws, 'jobs:list', {})).value as { jobId: string; state: string }[];
        if (listed.find((j) => j.jobId === jobId)?.state === 'cancelled') break;
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      ws.close();
    }
    await expectHostAnswers();
  });

  it("is not sent a request over the limit by the console's own transport, which says why instead", async () => {
    // The renderer's transport, on Node's ws with the session's headers (a browser sends them itself).
    class SessionWebSocket extends WebSocket {
      constructor(url: string) {
        super(url, { headers });
        this.on('error', () => {});
      }
    }
    vi.stubGlobal('WebSocket', SessionWebSocket);
    try {
      const transport = websocketTransport(`ws://127.0.0.1:${port}/ipc`);
      const tooBig = await transport.invoke('consents:resolve', { consentIds: Array.from({ length: 10_000 }, () => '€'.repeat(200)) });
      expect(tooBig).toEqual({
        ok: false,
        error: {
          code: 'INVALID_INPUT',
          message: expect.stringMatching(/^This request is too large to send \(5\.8 MiB; the limit is 4\.0 MiB\)\.$/) as unknown as string,
        },
      });
      // The connection was kept: the next request goes through.
      expect(await transport.invoke('app:status', {})).toMatchObject({ ok: true });
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
