import { AsyncLocalStorage } from 'node:async_hooks';
import type { Caller } from '../../shared/ipc/roles.js';

/**
 * Who sent the request being handled: the transport says (the browser host: the connection's
 * address and the browser's user agent; the desktop window and the command line: nothing), and it
 * follows the request through every await down to the store, which writes it into the audit entry
 * of the action it causes (a bulk job started by a request carries it too).
 *
 * `caller`: the person, when the transport identified one (a team server's sign-in; the browser
 * host's `identify` option). The router checks the caller's role against the channel's before
 * anything runs; without a caller (the desktop, the command line, the one-token browser host, a
 * scheduled sync) every channel is open, as in solo mode.
 */
export interface RequestContext {
  client?: { address: string; userAgent: string | null };
  caller?: Caller;
  /**
   * Reads the caller again (a team server's session, role and status, fresh from the store): the
   * router asks it before a channel that needs the caller as they are now (roles.ts
   * needsCurrentCaller); null when their session has ended.
   */
  current?: () => Promise<Caller | null>;
}

const store = new AsyncLocalStorage<RequestContext>();

/** Runs `fn` as the handling of this request (none: a request from nobody, whatever ran before). */
export function runWithRequest<T>(request: RequestContext | undefined, fn: () => Promise<T>): Promise<T> {
  return store.run(request ?? {}, fn);
}

/** Runs `fn` outside any request: a timer it sets up (a schedule) is nobody's request. */
export function outsideRequest<T>(fn: () => T): T {
  return store.exit(fn);
}

/** The request being handled, if any. */
export function currentRequest(): RequestContext | undefined {
  return store.getStore();
}

/** The client of the request being handled, in one line for the audit log (address, user agent), or null. */
export function currentClient(): string | null {
  const c = store.getStore()?.client;
  if (!c) return null;
  // Control characters (a hostile header) become spaces: the entry stays one line.
  const agent = c.userAgent ? ` ${[...c.userAgent.slice(0, 300)].map((ch) => (ch < ' ' || ch === '\u007f' ? ' ' : ch)).join('')}` : '';
  return `${c.address}${agent}`;
}

/** The person who sent the request being handled, when the transport identified one. */
export function currentCaller(): Caller | undefined {
  return store.getStore()?.caller;
}
