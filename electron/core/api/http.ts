import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { parseTolerant, type UnknownValue } from '../../../shared/schemas/parse.js';
import type { TokenSource } from '../auth/token-source.js';
import { ApiError, errorFromResponse, networkError } from './errors.js';
import { backoffMs, DEFAULT_RETRY, defaultSleep, gaveUp, retryAfterMs, type RetryInfo, type RetryPolicy } from './retry.js';
import { identifierProblem } from '../../../shared/ipc/identifier.js';

/**
 * The HTTP layer of the API clients: bearer token (renewed once on 401), a timeout per attempt,
 * cancellation, a request id on every call, retries with jittered exponential backoff on 5xx,
 * 429 (Retry-After honoured) and network errors, and tolerant parsing with the shared schemas.
 *
 * A call whose effect is not idempotent (POST, PATCH, DELETE) is never simply repeated when its
 * outcome is unknown (a 5xx, a timeout, a dropped connection): the caller's `reconcile` re-reads the
 * state first and says whether the effect already happened.
 */

export interface HttpOptions {
  baseUrl: string;
  tokens: TokenSource;
  fetch?: typeof fetch;
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  /** Injected in tests to record waits instead of sleeping. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  /** Called before each retry (the sync counts them for its summary). */
  onRetry?: (retry: RetryInfo) => void;
}

export interface RequestSpec<T extends z.ZodType> {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';
  /** A path relative to the base URL, or an absolute URL on the same origin (links.next). */
  path: string;
  query?: Record<string, string | number | boolean | readonly string[] | undefined>;
  body?: unknown;
  headers?: Record<string, string>;
  /** The schema pair (tolerant, strict) of the response; omit for bodiless responses. */
  schema?: { tolerant: T; strict: z.ZodType };
  signal?: AbortSignal;
  /** For non-idempotent calls: after an unknown outcome, re-read the state. 'done' = it happened. */
  reconcile?: () => Promise<'done' | 'retry'>;
  /** Label for errors and logs, e.g. "DELETE /consents/{id}". */
  endpoint: string;
}

export interface HttpResult<T> {
  data: T;
  status: number;
  requestId: string;
  unknownValues: UnknownValue[];
  /** True when a reconcile found the effect had already happened (no body to return). */
  reconciled?: boolean;
}

const IDEMPOTENT = new Set(['GET', 'PUT']);

/**
 * A 2xx whose body could not be read whole (the connection reset mid-body) or is not JSON (cut
 * off, garbled): transient, so a read is retried; a body that parses but does not fit the schema is not.
 */
class BodyFault extends Error {
  constructor(readonly error: ApiError) {
    super(error.message);
  }
}

/**
 * A call whose effect may have happened (its answer was lost) and whose state could not be re-read:
 * the outcome is unknown, and the message says so instead of "not sent".
 */
function outcomeUnknown(error: ApiError, reread: unknown): ApiError {
  const why = reread instanceof Error ? reread.message : String(reread);
  return new ApiError(error.kind, `${error.message}; the state could not be re-read to learn whether it took effect (${why})`, {
    endpoint: error.endpoint,
    ...(error.status !== undefined ? { status: error.status } : {}),
    ...(error.requestId !== undefined ? { requestId: error.requestId } : {}),
    details: error.details,
    outcomeUnknown: true,
    cause: reread,
  });
}

/** A connection that was never made (refused, no such host): the request cannot have had an effect. */
function neverSent(error: ApiError): boolean {
  for (let e: unknown = error.cause, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') return true;
  }
  return false;
}

export class ApiHttp {
  readonly baseUrl: URL;
  private readonly doFetch: typeof fetch;
  private readonly policy: RetryPolicy;
  private readonly sleep: NonNullable<HttpOptions['sleep']>;
  private readonly random: () => number;

  constructor(private readonly opts: HttpOptions) {
    this.baseUrl = new URL(opts.baseUrl.endsWith('/') ? opts.baseUrl : `${opts.baseUrl}/`);
    this.doFetch = opts.fetch ?? fetch;
    this.policy = { ...DEFAULT_RETRY, ...opts.retry };
    this.sleep = opts.sleep ?? defaultSleep;
    this.random = opts.random ?? Math.random;
  }

  url(path: string, query?: RequestSpec<z.ZodType>['query']): URL {
    const url = new URL(path.replace(/^\//, ''), this.baseUrl);
    if (url.origin !== this.baseUrl.origin)
      throw new ApiError('Schema', `refused to call another origin (${url.origin}): the bearer token must never leave the intermediary`, {
        endpoint: path,
      });
    for (const [k, v] of Object.entries(query ?? {})) {
      if (v === undefined) continue;
      if (Array.isArray(v)) for (const item of v) url.searchParams.append(k, item);
      else url.searchParams.set(k, String(v));
    }
    return url;
  }

  private backoff(attempt: number): number {
    return backoffMs(this.policy, attempt, this.random);
  }

  async request<T extends z.ZodType>(spec: RequestSpec<T>): Promise<HttpResult<z.output<T>>> {
    const url = this.url(spec.path, spec.query);
    const idempotent = IDEMPOTENT.has(spec.method);
    let renewed = false;
    for (let attempt = 0; ; attempt++) {
      const requestId = randomUUID();
      let response: Response | undefined;
      let failure: ApiError | undefined;
      try {
        const token = await this.opts.tokens.getToken(spec.signal);
        const timeout = AbortSignal.timeout(this.opts.timeoutMs ?? 30_000);
        response = await this.doFetch(url, {
          method: spec.method,
          headers: {
            authorization: `Bearer ${token}`,
            accept: 'application/json',
            'x-fapi-interaction-id': requestId,
            ...(spec.body !== undefined ? { 'content-type': 'application/json' } : {}),
            ...spec.headers,
          },
          ...(spec.body !== undefined ? { body: JSON.stringify(spec.body) } : {}),
          signal: spec.signal ? AbortSignal.any([spec.signal, timeout]) : timeout,
        });
      } catch (error) {
        if (spec.signal?.aborted) throw spec.signal.reason ?? error;
        if (error instanceof ApiError) throw error; // the token endpoint's own typed failure
        failure = networkError(spec.endpoint, error);
      }

      if (response?.status === 401 && !renewed) {
        renewed = true;
        await response.body?.cancel();
        this.opts.tokens.invalidate();
        attempt--;
        continue;
      }
      let bodyFault = false;
      if (response && response.ok) {
        try {
          return await this.parse(spec, response, requestId);
        } catch (error) {
          if (spec.signal?.aborted) throw spec.signal.reason ?? error;
          if (!(error instanceof BodyFault)) throw error;
          failure = error.error;
          bodyFault = true;
        }
      } else if (response) failure = await errorFromResponse(response, spec.endpoint, requestId);

      const error = failure!;
      const retryable = bodyFault || error.kind === 'Network' || error.kind === 'Server' || error.kind === 'RateLimited';
      if (!retryable) throw error;
      if (!idempotent && error.kind !== 'RateLimited' && !neverSent(error)) {
        // The effect may or may not have happened (a 2xx whose body was lost: it did): look before
        // repeating it, or before giving up, so a change that happened is never reported as not made.
        if (!spec.reconcile) throw error;
        let seen: 'done' | 'retry';
        try {
          seen = await spec.reconcile();
        } catch (reread) {
          if (spec.signal?.aborted) throw spec.signal.reason ?? reread;
          throw outcomeUnknown(error, reread);
        }
        if (seen === 'done') return { data: undefined as z.output<T>, status: 0, requestId, unknownValues: [], reconciled: true };
      }
      if (attempt >= this.policy.retries) throw gaveUp(error, attempt + 1);
      let wait = this.backoff(attempt);
      if (error.kind === 'RateLimited') {
        const after = retryAfterMs(response!.headers.get('retry-after'));
        if (after !== undefined && after > this.policy.maxRetryAfterMs) throw error;
        if (after !== undefined) wait = after;
      }
      this.opts.onRetry?.({ endpoint: spec.endpoint, attempt, reason: error.message, waitMs: wait });
      await this.sleep(wait, spec.signal);
    }
  }

  private async parse<T extends z.ZodType>(spec: RequestSpec<T>, response: Response, requestId: string): Promise<HttpResult<z.output<T>>> {
    const serverId = response.headers.get('x-fapi-interaction-id') ?? requestId;
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      // undici's bare "TypeError: terminated": the connection ended before the whole body arrived.
      const reason = (error as Error).cause instanceof Error ? ((error as Error).cause as Error).message : (error as Error).message;
      throw new BodyFault(
        new ApiError('Network', `${spec.endpoint}: the connection was lost while reading the answer (${reason})`, {
          endpoint: spec.endpoint,
          status: response.status,
          requestId: serverId,
          cause: error,
        }),
      );
    }
    if (!spec.schema) return { data: undefined as z.output<T>, status: response.status, requestId: serverId, unknownValues: [] };
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new BodyFault(
        new ApiError('Schema', `${spec.endpoint} answered with a body that is not JSON, or cut off (${text.length} bytes)`, {
          endpoint: spec.endpoint,
          status: response.status,
          requestId: serverId,
          cause: error,
        }),
      );
    }
    const parsed = parseTolerant(spec.schema, json);
    if (!parsed.ok) {
      throw new ApiError('Schema', `${spec.endpoint}: ${parsed.error.path || '(body)'}: ${parsed.error.message}`, {
        endpoint: spec.endpoint,
        status: response.status,
        requestId: serverId,
        path: parsed.error.path,
      });
    }
    return { data: parsed.data, status: response.status, requestId: serverId, unknownValues: parsed.unknownValues };
  }
}

/**
 * One path segment built from an identifier: refused unless it is an identifier (never '.', '..',
 * empty, nor holding '/' or '\\'), then percent-encoded, so no id can reach another path — `revoke ..`
 * would otherwise call the API root.
 */
export function pathSegment(value: string, what: string, endpoint: string): string {
  const problem = identifierProblem(value);
  if (problem)
    throw new ApiError('Http', `Refused to call ${endpoint}: the ${what} ${JSON.stringify(value)} is not an identifier (${problem}).`, {
      endpoint,
    });
  return encodeURIComponent(value);
}
