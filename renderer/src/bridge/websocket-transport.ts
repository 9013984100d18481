import { isEventName, type EventName } from '../../../shared/ipc/channels.js';
import type { Channel } from '../../../shared/ipc/contract.js';
import type { Envelope } from '../../../shared/ipc/errors.js';
import { MAX_IPC_MESSAGE_BYTES } from '../../../shared/ipc/limits.js';
import { page, SIGNED_OUT_PAGE } from './page.js';
import type { ConnectionState, Transport } from './transport.js';

/**
 * Transport over the browser host's WebSocket (/ipc on the same origin; the session cookie
 * authenticates it). Reconnects with backoff; requests in flight when the socket drops fail
 * with a TRANSPORT error rather than hanging.
 *
 * A team server's session can end under an open console (signed out elsewhere, disabled, a new
 * role or password): the server closes the socket with SESSION_ENDED, and the page goes to the
 * sign-in page rather than reconnecting. A session that ended while the socket was down shows as
 * a reconnect refused: the server is asked (GET /api/session; once it answered, not again until the
 * socket opens) whether the session is over (a 401 naming where to sign in) or only the connection
 * (anything else: reconnecting goes on). The solo browser host has no sessions: it never closes
 * with that code, and answers no such 401.
 */
const REQUEST_TIMEOUT_MS = 120_000;
/** How recent the person's last keystroke or click must be for a request to count as their activity. */
const ACTIVE_MS = 60_000;
let lastInput = Date.now();
if (typeof window !== 'undefined')
  for (const type of ['keydown', 'pointerdown', 'wheel', 'touchstart'] as const)
    window.addEventListener(type, () => (lastInput = Date.now()), { capture: true, passive: true });
/** The close code of a connection whose session ended (electron/host/server.ts SESSION_ENDED). */
export const SESSION_ENDED = 4401;

/**
 * Whether the server says the session is over (a 401 with JSON naming the sign-in page), is not
 * (any other answer), or could not be asked (no answer: the server is down).
 */
async function sessionOver(): Promise<'over' | 'not' | 'unknown'> {
  let res: Response;
  try {
    res = await page.fetch('/api/session', { credentials: 'same-origin', headers: { accept: 'application/json' } });
  } catch {
    return 'unknown';
  }
  if (res.status !== 401) return 'not';
  const body = (await res.json().catch(() => null)) as { signIn?: unknown } | null;
  return typeof body?.signIn === 'string' ? 'over' : 'not';
}

export function websocketTransport(url: string): Transport {
  let socket: WebSocket | undefined;
  let nextId = 1;
  let state: ConnectionState = 'connecting';
  let retryMs = 500;
  const pending = new Map<number, { resolve: (e: Envelope<unknown>) => void; timer: ReturnType<typeof setTimeout> }>();
  const eventListeners = new Set<(event: EventName, payload: unknown) => void>();
  const stateListeners = new Set<(state: ConnectionState) => void>();
  let opened: Promise<void>;
  /** Leaving for the sign-in page: no more reconnecting. */
  let leaving = false;
  /** Whether the server answered about the session since the socket was last open. */
  let asked = false;

  const setState = (next: ConnectionState) => {
    state = next;
    stateListeners.forEach((l) => l(next));
  };
  const failAll = (message: string) => {
    for (const [id, p] of pending) {
      clearTimeout(p.timer);
      p.resolve({ ok: false, error: { code: 'TRANSPORT', message } });
      pending.delete(id);
    }
  };

  function connect(): void {
    setState('connecting');
    const ws = new WebSocket(url);
    socket = ws;
    let wasOpen = false;
    opened = new Promise((resolve) => {
      ws.addEventListener('open', () => {
        wasOpen = true;
        asked = false;
        retryMs = 500;
        setState('connected');
        resolve();
      });
      ws.addEventListener('close', () => resolve());
    });
    ws.addEventListener('message', (msg) => {
      let data: { id?: unknown; result?: Envelope<unknown>; event?: unknown; payload?: unknown };
      try {
        data = JSON.parse(String(msg.data)) as typeof data;
      } catch {
        return;
      }
      if (typeof data.id === 'number' && data.result) {
        const p = pending.get(data.id);
        if (p) {
          clearTimeout(p.timer);
          pending.delete(data.id);
          p.resolve(data.result);
        }
      } else if (isEventName(data.event)) {
        const event = data.event;
        eventListeners.forEach((l) => l(event, data.payload));
      }
    });
    ws.addEventListener('close', (event) => {
      // The host says why it closed a connection (a message too big, answers left unread…).
      failAll(`The connection to the console host was lost${event.reason ? `: ${event.reason}` : ''}.`);
      setState('disconnected');
      if (leaving) return;
      if (event.code === SESSION_ENDED) {
        leaving = true;
        page.assign(SIGNED_OUT_PAGE);
        return;
      }
      if (!wasOpen && !asked) {
        asked = true;
        void sessionOver().then((answer) => {
          // No answer: the next refused reconnect asks again.
          if (answer === 'unknown') asked = false;
          if (answer !== 'over' || leaving) return;
          leaving = true;
          page.assign('/signin');
        });
      }
      setTimeout(() => {
        if (!leaving) connect();
      }, retryMs);
      retryMs = Math.min(retryMs * 2, 10_000);
    });
  }
  connect();

  return {
    kind: 'browser',
    async invoke(channel: Channel, input: unknown) {
      if (state !== 'connected') await opened;
      const ws = socket;
      if (!ws || ws.readyState !== WebSocket.OPEN) {
        return { ok: false, error: { code: 'TRANSPORT', message: 'Not connected to the console host.' } };
      }
      const id = nextId++;
      // `active`: the person used the keyboard or pointer in the last minute. A team server counts only
      // such requests against its idle timeout (the status bar's polling and refreshes after a sync do not).
      const message = JSON.stringify({ id, channel, input, active: Date.now() - lastInput < ACTIVE_MS });
      // The host would close the connection on a larger message: refuse it here, saying so.
      const bytes = new TextEncoder().encode(message).length;
      if (bytes > MAX_IPC_MESSAGE_BYTES) {
        const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
        return {
          ok: false,
          error: {
            code: 'INVALID_INPUT',
            message: `This request is too large to send (${mb(bytes)} MiB; the limit is ${mb(MAX_IPC_MESSAGE_BYTES)} MiB).`,
          },
        };
      }
      return new Promise<Envelope<unknown>>((resolve) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          resolve({ ok: false, error: { code: 'TRANSPORT', message: `No answer to ${channel} within ${REQUEST_TIMEOUT_MS / 1000} s.` } });
        }, REQUEST_TIMEOUT_MS);
        pending.set(id, { resolve, timer });
        ws.send(message);
      });
    },
    subscribe(listener) {
      eventListeners.add(listener);
      return () => eventListeners.delete(listener);
    },
    onConnectionChange(listener) {
      stateListeners.add(listener);
      listener(state);
      return () => stateListeners.delete(listener);
    },
  };
}
