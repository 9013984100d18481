import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import type { Command } from 'commander';
import type { EventName } from '../../shared/ipc/channels.js';
import type { Channel, ChannelInput, ChannelOutput } from '../../shared/ipc/contract.js';
import type { Envelope } from '../../shared/ipc/errors.js';
import { CoreError } from '../core/errors.js';
import { EXIT, Exit } from './common.js';
import { teamServerAddress } from '../core/team-client.js';

/**
 * The command line against a team server (`--server URL --user NAME`): it signs in as the person
 * (the password from CDR_CONSOLE_PASSWORD, or asked on the terminal), then sends each command's
 * requests over the server's IPC WebSocket, exactly as a console does. The server checks the
 * person's role on every request: a command the role does not allow exits non-zero with the
 * server's reason and changes nothing. The session ends when the command does.
 */
export interface RemoteConsole {
  /** Who signed in, as the server says. */
  user: { userName: string; displayName: string; role: string };
  call<C extends Channel>(channel: C, input: ChannelInput<C>): Promise<ChannelOutput<C>>;
  /** Events the server pushes (sync progress, job progress). */
  on(listener: (event: EventName, payload: unknown) => void): () => void;
  close(): Promise<void>;
}

/** The server's address, checked: http(s) with a host, nothing after the path. */
export function serverUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Exit(EXIT.usage, `--server: "${raw}" is not a URL (e.g. https://console.example.com).`);
  }
  if (url.username || url.password) throw new Exit(EXIT.usage, '--server: no user or password in the address (use --user).');
  // The password travels to it: https, or plain http to this machine only (as the desktop's rule).
  try {
    return teamServerAddress(raw);
  } catch (error) {
    throw new Exit(EXIT.usage, `--server: ${(error as Error).message}`);
  }
}

/** The password: CDR_CONSOLE_PASSWORD, or typed at the terminal without echo. */
export async function passwordFor(user: string): Promise<string> {
  const given = process.env.CDR_CONSOLE_PASSWORD;
  if (given) return given;
  if (!process.stdin.isTTY)
    throw new Exit(EXIT.usage, `No password for ${user}: set CDR_CONSOLE_PASSWORD, or run the command at a terminal to be asked.`);
  const muted = new Writable({ write: (_chunk, _enc, done) => done() });
  const rl = createInterface({ input: process.stdin, output: muted, terminal: true });
  process.stderr.write(`Password for ${user}: `);
  const password = await new Promise<string>((resolve) => rl.question('', resolve));
  rl.close();
  process.stderr.write('\n');
  return password;
}

export async function connectRemote(server: string, user: string, password: string): Promise<RemoteConsole> {
  const base = serverUrl(server);
  let res: Response;
  try {
    res = await fetch(new URL('/api/signin', base), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'cdr-console-cli' },
      body: JSON.stringify({ user, password }),
      redirect: 'manual',
    });
  } catch (error) {
    throw new Exit(EXIT.offline, `The team server at ${base.origin} could not be reached: ${(error as Error).message}.`);
  }
  const body = (await res.json().catch(() => ({}))) as { token?: string; user?: RemoteConsole['user']; error?: string };
  if (res.status === 401) throw new Exit(EXIT.unauthorized, body.error ?? 'The user name or password is wrong.');
  if (res.status === 429) throw new Exit(EXIT.unauthorized, body.error ?? 'Too many sign-in attempts: try again later.');
  if (!res.ok || !body.token || !body.user)
    throw new Exit(
      EXIT.error,
      `The team server at ${base.origin} did not sign you in (${res.status}${body.error ? `: ${body.error}` : ''}).`,
    );
  const token = body.token;
  // ws is loaded here, not with the command line: a command on this machine never needs it.
  const { WebSocket } = await import('ws');
  const ws = new WebSocket(`${base.origin.replace(/^http/, 'ws')}/ipc`, {
    headers: { authorization: `Bearer ${token}`, origin: base.origin, 'user-agent': 'cdr-console-cli' },
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('unexpected-response', (_req, r) =>
      reject(new Exit(EXIT.unauthorized, `The team server refused the connection (${r.statusCode}).`)),
    );
    ws.once('error', (e) => reject(new Exit(EXIT.offline, `The team server's connection failed: ${e.message}.`)));
  });
  let nextId = 1;
  const pending = new Map<number, (e: Envelope<unknown>) => void>();
  const listeners = new Set<(event: EventName, payload: unknown) => void>();
  let closedWhy: string | null = null;
  ws.on('message', (data) => {
    let m: { id?: unknown; result?: Envelope<unknown>; event?: EventName; payload?: unknown };
    try {
      m = JSON.parse(String(data)) as typeof m;
    } catch {
      return;
    }
    if (typeof m.id === 'number' && m.result) pending.get(m.id)?.(m.result);
    else if (m.event) for (const l of listeners) l(m.event, m.payload);
  });
  ws.on('close', (code, reason) => {
    closedWhy =
      code === 4401
        ? 'Your session ended (signed out, disabled, or your role changed).'
        : `The connection closed (${code} ${String(reason)}).`;
    for (const [, done] of pending) done({ ok: false, error: { code: 'TRANSPORT', message: closedWhy } });
    pending.clear();
  });
  return {
    user: body.user,
    call: (channel, input) =>
      new Promise((resolve, reject) => {
        if (closedWhy) return reject(new Exit(EXIT.error, closedWhy));
        const id = nextId++;
        pending.set(id, (e) => {
          pending.delete(id);
          if (e.ok) resolve(e.value as never);
          else reject(new CoreError(e.error.code, e.error.message));
        });
        ws.send(JSON.stringify({ id, channel, input }));
      }),
    on: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      // The command's session ends with it: nothing is left signed in on the server.
      await fetch(new URL('/api/signout', base), {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{}',
      }).catch(() => undefined);
      ws.close();
    },
  };
}

/** The team server the command line talks to (`--server`), or null for this machine's data directory. */
export function remoteOf(program: Command): { server: string; user: string } | null {
  const o = program.opts<{ server?: string; user?: string }>();
  if (!o.server && !o.user) return null;
  if (!o.server || !o.user) throw new Exit(EXIT.usage, '--server and --user go together: the team server, and who you are on it.');
  return { server: o.server, user: o.user };
}

/** Signs in, runs `fn` on the team server, signs out. */
export async function withRemote<T>(remote: { server: string; user: string }, fn: (c: RemoteConsole) => Promise<T>): Promise<T> {
  const c = await connectRemote(remote.server, remote.user, await passwordFor(remote.user));
  try {
    return await fn(c);
  } finally {
    await c.close();
  }
}

/** Commands that run against a team server; the others act on this machine's data directory. */
export const REMOTE_COMMANDS = new Set([
  'whoami',
  'sync',
  'consents',
  'consent',
  'revoke',
  'bulk-revoke',
  'events',
  'audit verify',
  'audit checkpoint',
  'audit export',
  'data',
  'alerts list',
  'alerts add',
  'alerts remove',
  'alerts test',
  'complaints',
]);
