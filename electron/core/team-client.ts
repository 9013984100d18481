import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writePrivateFile } from './data-dir.js';

/**
 * The desktop as a team server's client (issue 20): Settings → Connect to a team server. The
 * desktop then opens the server's console in its window, in a session of its own, and starts no
 * core: it holds no intermediary credentials and opens no CDR cache (the solo cache stays on disk
 * as it was). What it keeps is this file (the server's address) and the session cookie, which
 * Chromium stores encrypted with a key from the OS keychain where there is one (macOS Keychain,
 * Windows DPAPI, the Secret Service on Linux). Switching back to solo mode removes this file.
 *
 * Electron-free: the shell (main.ts) reads it; tests run it under Node.
 */
export const TEAM_CLIENT_FILE = 'team-client.json';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** A team server's address as the desktop accepts it: https, or http on this machine; its origin only. */
export function teamServerAddress(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new RangeError(`"${raw.slice(0, 100)}" is not an address: type the team server's, e.g. https://console.example.com.`);
  }
  if (url.username || url.password) throw new RangeError('The address carries a user or password: type only the server’s address.');
  if (url.protocol === 'http:' && !LOOPBACK.has(url.hostname))
    throw new RangeError('A team server beyond this machine is reached over https (its sign-in and data travel the network).');
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new RangeError('A team server’s address starts with https://.');
  return new URL(url.origin);
}

export function readTeamClient(dataDir: string): { url: string; since: string } | null {
  const file = join(dataDir, TEAM_CLIENT_FILE);
  if (!existsSync(file)) return null;
  try {
    const v = JSON.parse(readFileSync(file, 'utf8')) as { url?: unknown; since?: unknown };
    return typeof v.url === 'string' && typeof v.since === 'string' ? { url: teamServerAddress(v.url).origin, since: v.since } : null;
  } catch {
    // A damaged file is solo mode: the desktop starts on its own cache, as before connecting.
    return null;
  }
}

export function writeTeamClient(dataDir: string, url: URL, now = new Date()): void {
  writePrivateFile(join(dataDir, TEAM_CLIENT_FILE), `${JSON.stringify({ url: url.origin, since: now.toISOString() })}\n`);
}

export function clearTeamClient(dataDir: string): void {
  rmSync(join(dataDir, TEAM_CLIENT_FILE), { force: true });
}

/**
 * Whether `url` is a CDR Console team server that signs people in: its /api/session answers as
 * one does (JSON: who is signed in, or where to sign in). Anything else is refused with why.
 */
export async function probeTeamServer(url: URL, fetchFn: typeof fetch = fetch): Promise<void> {
  let res: Response;
  try {
    res = await fetchFn(new URL('/api/session', url), { redirect: 'manual', signal: AbortSignal.timeout(10_000) });
  } catch (error) {
    throw new Error(`${url.origin} cannot be reached: ${(error as Error).message}.`);
  }
  const body = (await res.json().catch(() => null)) as { signIn?: unknown; user?: unknown } | null;
  if (!(res.status === 401 && body?.signIn === '/signin') && !(res.status === 200 && body?.user))
    throw new Error(`${url.origin} answers, but not as a CDR Console team server (its /api/session said ${res.status}).`);
}

/**
 * Where the desktop's window may go while it is a team server's client: the server; an https site
 * the server's sign-in sends it to (its identity provider, learnt then: `providers` keeps it); and
 * those providers' pages. Not anywhere else on the web: the window has no address bar.
 */
export function clientMayNavigate(target: string, team: URL, current: string, providers: Set<string>): boolean {
  let to: URL;
  try {
    to = new URL(target);
  } catch {
    return false;
  }
  if (to.origin === team.origin) return true;
  if (to.protocol !== 'https:') return false;
  if (providers.has(to.origin)) return true;
  let from: URL | null = null;
  try {
    from = new URL(current);
  } catch {
    from = null;
  }
  if (from?.origin === team.origin && from.pathname.startsWith('/signin')) {
    providers.add(to.origin);
    return true;
  }
  return false;
}
