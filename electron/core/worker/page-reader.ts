import { parentPort } from 'node:worker_threads';
import { ConsentClient } from '../api/consent-client.js';
import { DataClient } from '../api/data-client.js';
import type { HttpOptions } from '../api/http.js';
import type { TokenSource } from '../auth/token-source.js';
import {
  AHEAD,
  reviveError,
  serializeError,
  type FromReader,
  type ListRequest,
  type ReaderClientOptions,
  type ToReader,
} from '../sync/page-reader.js';

/**
 * The page reading thread's entry (see sync/page-reader.ts): lists pages with the console's own
 * clients (fetch, JSON.parse, the schemas) and posts each validated page to the sync's thread, at
 * most AHEAD pages before the sync has taken them. Tokens come from the sync's token source.
 */
const port = parentPort!;
const post = (m: FromReader) => port.postMessage(m);

/**
 * A token from the sync's token source is reused for up to TOKEN_REUSE_MS: asking for one on every
 * request made each fetch wait for the sync's thread to finish the rows it was writing (its event
 * loop answers), which put the reading back in series with the writing. The source hands out a
 * token only while it has 30 s or more to live (token-source.ts), so a token reused for 10 s is
 * still valid; one the intermediary refuses anyway (a 401) is invalidated and asked for again.
 */
const TOKEN_REUSE_MS = 10_000;
let nextAsk = 1;
const asks = new Map<number, { resolve(token: string): void; reject(error: Error): void }>();
let reused: { token: string; at: number } | undefined;
let asking: Promise<string> | undefined;
const ask = () =>
  new Promise<string>((resolve, reject) => {
    const n = nextAsk++;
    asks.set(n, { resolve, reject });
    post({ type: 'token', ask: n });
  });
const tokens: TokenSource = {
  getToken: (signal) => {
    signal?.throwIfAborted();
    if (reused && Date.now() - reused.at < TOKEN_REUSE_MS) return Promise.resolve(reused.token);
    if (!asking) {
      const at = Date.now();
      asking = ask().then(
        (token) => {
          asking = undefined;
          reused = { token, at };
          return token;
        },
        (error: unknown) => {
          asking = undefined;
          throw error;
        },
      );
    }
    return asking;
  },
  invalidate: () => {
    reused = undefined;
    post({ type: 'invalidate' });
  },
};

interface Running {
  controller: AbortController;
  acked: number;
  sent: number;
  wake: (() => void) | undefined;
}
const running = new Map<number, Running>();

async function list(id: number, client: ReaderClientOptions, request: ListRequest): Promise<void> {
  const run: Running = { controller: new AbortController(), acked: 0, sent: 0, wake: undefined };
  running.set(id, run);
  const signal = run.controller.signal;
  const opts: HttpOptions = {
    baseUrl: client.baseUrl,
    tokens,
    onRetry: (retry) => post({ type: 'retry', id, retry }),
    ...(client.retry ? { retry: client.retry } : {}),
    ...(client.timeoutMs !== undefined ? { timeoutMs: client.timeoutMs } : {}),
  };
  try {
    const pages =
      request.source === 'consents'
        ? new ConsentClient(opts).listConsentPages({ ...request.opts, signal })
        : request.source === 'events'
          ? new ConsentClient(opts).listEventPages({ ...request.opts, signal })
          : new DataClient(opts).listPages(request.kind, { ...request.opts, signal });
    for await (const page of pages) {
      if (signal.aborted) return;
      post({ type: 'page', id, page });
      run.sent++;
      while (run.sent - run.acked >= AHEAD && !signal.aborted) await new Promise<void>((resolve) => (run.wake = resolve));
      if (signal.aborted) return;
    }
    post({ type: 'end', id });
  } catch (error) {
    if (!signal.aborted) post({ type: 'error', id, error: serializeError(error) });
  } finally {
    running.delete(id);
  }
}

port.on('message', (m: ToReader) => {
  if (m.type === 'list') void list(m.id, m.client, m.request);
  else if (m.type === 'token') {
    const waiting = asks.get(m.ask);
    asks.delete(m.ask);
    if (m.token !== undefined) waiting?.resolve(m.token);
    else waiting?.reject(reviveError(m.error ?? { name: 'Error', message: 'no token' }));
  } else {
    const run = running.get(m.id);
    if (!run) return;
    if (m.type === 'ack') run.acked++;
    else run.controller.abort(new Error('cancelled'));
    run.wake?.();
    run.wake = undefined;
  }
});
