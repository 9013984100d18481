import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ConsentClient, type ConsentListFilter, type ConsentPage, type EventFilter, type Page } from '../api/consent-client.js';
import { DataClient, type DataKind, type DataPage } from '../api/data-client.js';
import { ApiError, type ApiErrorKind } from '../api/errors.js';
import type { HttpOptions } from '../api/http.js';
import type { RetryInfo, RetryPolicy } from '../api/retry.js';
import type { TokenSource } from '../auth/token-source.js';
import type { ConsentEvent } from '../../../shared/schemas/consent.js';

/**
 * The sync's page reading on a thread of its own: fetching a list's pages, JSON.parse and the
 * schemas' validation (the largest part: 20 ms of a 1,000-consent page, five times its JSON.parse)
 * run there, and the thread that writes the cache receives each validated page ready to store. The
 * two run at once where a core is free; before, the writing thread did both, one after the other.
 *
 * What the sync sees is unchanged: the same pages in the same order, the same errors (an ApiError
 * crosses the thread boundary as its fields and is made again), retries counted by the sync's own
 * onRetry, and one token source (the reading thread asks the sync's for its tokens). The reader
 * fetches at most `AHEAD` pages the sync has not taken yet, so memory stays bounded.
 */

/** Pages read ahead of the sync at most (the sync's prefetch takes one of them as it stores another). */
const AHEAD = 2;

export type ListRequest =
  | { source: 'consents'; opts: { pageSize?: number; startPage?: number; filter?: ConsentListFilter } }
  | { source: 'events'; opts: { pageSize?: number; filter?: EventFilter } }
  | { source: 'data'; kind: DataKind; opts: { consentIds?: string[]; pageSize?: number; startPage?: number } };

/** What the reading thread needs to build its clients: plain data. */
export interface ReaderClientOptions {
  baseUrl: string;
  retry?: Partial<RetryPolicy>;
  timeoutMs?: number;
}

/** Messages from the sync's thread to the reader. */
export type ToReader =
  | { type: 'list'; id: number; client: ReaderClientOptions; request: ListRequest }
  | { type: 'ack'; id: number }
  | { type: 'cancel'; id: number }
  | { type: 'token'; ask: number; token?: string; error?: SerializedError };

/** Messages from the reader to the sync's thread. */
export type FromReader =
  | { type: 'page'; id: number; page: unknown }
  | { type: 'end'; id: number }
  | { type: 'error'; id: number; error: SerializedError }
  | { type: 'retry'; id: number; retry: RetryInfo }
  | { type: 'token'; ask: number }
  | { type: 'invalidate' };

export interface SerializedError {
  name: string;
  message: string;
  kind?: ApiErrorKind;
  endpoint?: string;
  status?: number;
  requestId?: string;
  path?: string;
  details?: string[];
  outcomeUnknown?: boolean;
}

export function serializeError(error: unknown): SerializedError {
  const e = (error instanceof Error ? error : new Error(String(error))) as Error & Partial<ApiError>;
  const out: SerializedError = { name: e.name, message: e.message };
  if (e instanceof ApiError) {
    out.kind = e.kind;
    out.endpoint = e.endpoint;
    if (e.status !== undefined) out.status = e.status;
    if (e.requestId !== undefined) out.requestId = e.requestId;
    if (e.path !== undefined) out.path = e.path;
    if (e.details.length) out.details = e.details;
    if (e.outcomeUnknown) out.outcomeUnknown = true;
  }
  return out;
}

export function reviveError(e: SerializedError): Error {
  if (e.kind && e.endpoint !== undefined)
    return new ApiError(e.kind, e.message, {
      endpoint: e.endpoint,
      ...(e.status !== undefined ? { status: e.status } : {}),
      ...(e.requestId !== undefined ? { requestId: e.requestId } : {}),
      ...(e.path !== undefined ? { path: e.path } : {}),
      ...(e.details ? { details: e.details } : {}),
      ...(e.outcomeUnknown ? { outcomeUnknown: true } : {}),
    });
  return Object.assign(new Error(e.message), { name: e.name });
}

/** As the sync's own thread (worker/host.ts): a small young generation keeps the peak memory down. */
const resourceLimits = { maxYoungGenerationSizeMb: 16 };

function spawn(): Worker {
  const here = import.meta.url;
  // Bundled, the reader is page-reader.cjs beside the bundle that starts it (worker.cjs).
  if (!here.endsWith('.ts')) return new Worker(new URL('./page-reader.cjs', here), { resourceLimits });
  const tsx = dirname(createRequire(here).resolve('tsx/package.json'));
  const loader = pathToFileURL(join(tsx, 'dist/esm/api/index.mjs')).href;
  const entry = new URL('../worker/page-reader.ts', here).href;
  const code = `import(${JSON.stringify(loader)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(code, { eval: true, resourceLimits });
}

interface Listing {
  push(message: FromReader): void;
}

/** The reading thread, for one sync: started at the first listing, ended by close(). */
export class PageReader {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly listings = new Map<number, Listing>();

  constructor(
    private readonly tokens: TokenSource,
    private readonly onRetry?: (retry: RetryInfo) => void,
  ) {}

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = spawn();
    worker.on('message', (m: FromReader) => {
      if (m.type === 'token') {
        this.tokens.getToken().then(
          (token) => worker.postMessage({ type: 'token', ask: m.ask, token } satisfies ToReader),
          (error: unknown) => worker.postMessage({ type: 'token', ask: m.ask, error: serializeError(error) } satisfies ToReader),
        );
      } else if (m.type === 'invalidate') this.tokens.invalidate();
      else if (m.type === 'retry') this.onRetry?.(m.retry);
      else this.listings.get(m.id)?.push(m);
    });
    const fail = (error: Error) => {
      for (const [id, l] of this.listings) l.push({ type: 'error', id, error: serializeError(error) });
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      this.worker = undefined;
      fail(new Error(`The page reading thread stopped (exit code ${code}).`));
    });
    this.worker = worker;
    return worker;
  }

  /** A list's pages as the client in the reading thread yields them. */
  async *list<T>(client: ReaderClientOptions, request: ListRequest, signal?: AbortSignal): AsyncGenerator<T> {
    signal?.throwIfAborted();
    const worker = this.start();
    const id = this.nextId++;
    const queue: FromReader[] = [];
    let wake: (() => void) | undefined;
    const push = (m: FromReader) => {
      queue.push(m);
      wake?.();
    };
    this.listings.set(id, { push });
    const onAbort = () => wake?.();
    signal?.addEventListener('abort', onAbort);
    let ended = false;
    try {
      worker.postMessage({ type: 'list', id, client, request } satisfies ToReader);
      for (;;) {
        while (queue.length === 0) {
          signal?.throwIfAborted();
          await new Promise<void>((resolve) => (wake = resolve));
          wake = undefined;
        }
        signal?.throwIfAborted();
        const m = queue.shift()!;
        if (m.type === 'page') {
          yield m.page as T;
          this.worker?.postMessage({ type: 'ack', id } satisfies ToReader);
        } else if (m.type === 'end') {
          ended = true;
          return;
        } else if (m.type === 'error') {
          ended = true;
          throw reviveError(m.error);
        }
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
      this.listings.delete(id);
      // Stopped early (a cancellation, the sync's own error): the reader stops fetching.
      if (!ended) this.worker?.postMessage({ type: 'cancel', id } satisfies ToReader);
    }
  }

  /** Ends the reading thread (the sync is over). */
  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.worker = undefined;
    await worker.terminate();
  }
}

export { AHEAD };

const clientOptions = (opts: HttpOptions): ReaderClientOptions => ({
  baseUrl: opts.baseUrl,
  ...(opts.retry ? { retry: opts.retry } : {}),
  ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
});

/** The Consent API client whose consent and event listings are read on the reading thread. */
export class ReaderConsentClient extends ConsentClient {
  private readonly options: ReaderClientOptions;
  constructor(
    opts: HttpOptions,
    private readonly reader: PageReader,
  ) {
    super(opts);
    this.options = clientOptions(opts);
  }

  override async *listConsentPages(
    opts: { pageSize?: number; startPage?: number; filter?: ConsentListFilter; signal?: AbortSignal } = {},
  ): AsyncGenerator<ConsentPage> {
    const { signal, ...rest } = opts;
    yield* this.reader.list<ConsentPage>(this.options, { source: 'consents', opts: rest }, signal);
  }

  override async *listEventPages(
    opts: { pageSize?: number; filter?: EventFilter; signal?: AbortSignal } = {},
  ): AsyncGenerator<Page<ConsentEvent>> {
    const { signal, ...rest } = opts;
    yield* this.reader.list<Page<ConsentEvent>>(this.options, { source: 'events', opts: rest }, signal);
  }
}

/** The Data API client whose listings are read on the reading thread. */
export class ReaderDataClient extends DataClient {
  private readonly options: ReaderClientOptions;
  constructor(
    opts: HttpOptions,
    private readonly reader: PageReader,
  ) {
    super(opts);
    this.options = clientOptions(opts);
  }

  override async *listPages(
    kind: DataKind,
    opts: { consentIds?: string[]; pageSize?: number; startPage?: number; signal?: AbortSignal } = {},
  ): AsyncGenerator<DataPage> {
    const { signal, ...rest } = opts;
    yield* this.reader.list<DataPage>(this.options, { source: 'data', kind, opts: rest }, signal);
  }
}
