import { decodeJwt, importPKCS8, SignJWT } from 'jose';
import { randomUUID } from 'node:crypto';
import { ApiError, errorFromResponse, networkError } from '../api/errors.js';
import { backoffMs, DEFAULT_RETRY, defaultSleep, gaveUp, retryAfterMs, type RetryInfo, type RetryPolicy } from '../api/retry.js';

/**
 * OAuth2 client-credentials token source. Caches the access token until shortly before it
 * expires; `invalidate()` drops it (the API client calls that once after a 401). The secret
 * stays in this object: it is never logged, returned, or sent anywhere but the token URL.
 *
 * Asking for a token is idempotent, so it is retried like any read: with jittered backoff on 5xx,
 * 429 (Retry-After honoured), network errors and a 2xx whose body is cut off or not JSON. A 400
 * or 401 (a wrong secret, an unknown scope) is final.
 */
export interface TokenSourceOptions {
  tokenUrl: string;
  clientId: string;
  /** The client secret, or for private_key_jwt the PKCS#8 PEM private key. */
  clientSecret: string;
  /** client_secret_basic (HTTP Basic), client_secret_post (form fields), or private_key_jwt (RFC 7523 assertion). */
  method: 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt';
  /** For private_key_jwt: the key id and algorithm of the registered key. */
  keyId?: string;
  algorithm?: string;
  scopes: readonly string[];
  /** Renew this many seconds before expiry. */
  skewSeconds?: number;
  fetch?: typeof fetch;
  now?: () => number;
  retry?: Partial<RetryPolicy>;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  onRetry?: (retry: RetryInfo) => void;
}

export interface TokenSource {
  getToken(signal?: AbortSignal): Promise<string>;
  invalidate(): void;
}

export function createClientCredentialsTokenSource(opts: TokenSourceOptions): TokenSource {
  const doFetch = opts.fetch ?? fetch;
  const now = opts.now ?? Date.now;
  const skewMs = (opts.skewSeconds ?? 30) * 1000;
  let cached: { token: string; expiresAt: number } | undefined;
  let inflight: Promise<string> | undefined;
  const policy = { ...DEFAULT_RETRY, ...opts.retry };
  const sleep = opts.sleep ?? defaultSleep;
  const endpoint = 'POST token';

  async function request(signal?: AbortSignal): Promise<string> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await requestOnce(signal);
      } catch (error) {
        if (signal?.aborted) throw signal.reason ?? error;
        const e = error as ApiError & { transient?: boolean; retryAfter?: number };
        if (!(error instanceof ApiError) || !(e.transient || ['Network', 'Server', 'RateLimited'].includes(error.kind))) throw error;
        if (attempt >= policy.retries) throw gaveUp(error, attempt + 1);
        let wait = backoffMs(policy, attempt, opts.random);
        if (e.retryAfter !== undefined) {
          if (e.retryAfter > policy.maxRetryAfterMs) throw error;
          wait = e.retryAfter;
        }
        opts.onRetry?.({ endpoint, attempt, reason: error.message, waitMs: wait });
        await sleep(wait, signal);
      }
    }
  }

  async function requestOnce(signal?: AbortSignal): Promise<string> {
    const form = new URLSearchParams({ grant_type: 'client_credentials' });
    if (opts.scopes.length) form.set('scope', opts.scopes.join(' '));
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
    if (opts.method === 'private_key_jwt') {
      form.set('client_assertion_type', 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
      form.set('client_assertion', await clientAssertion(opts, now()));
    } else if (opts.method === 'client_secret_basic') {
      // RFC 6749 §2.3.1: form-encode each part before joining.
      const user = encodeURIComponent(opts.clientId);
      const pass = encodeURIComponent(opts.clientSecret);
      headers.authorization = `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
    } else {
      form.set('client_id', opts.clientId);
      form.set('client_secret', opts.clientSecret);
    }
    let response: Response;
    try {
      response = await doFetch(opts.tokenUrl, { method: 'POST', headers, body: form, ...(signal ? { signal } : {}) });
    } catch (error) {
      throw networkError(endpoint, error);
    }
    if (!response.ok) {
      const error = await errorFromResponse(response, endpoint);
      const after = response.status === 429 ? retryAfterMs(response.headers.get('retry-after')) : undefined;
      throw after === undefined ? error : Object.assign(error, { retryAfter: after });
    }
    let body: { access_token?: unknown; expires_in?: unknown } | null;
    try {
      body = JSON.parse(await response.text()) as typeof body;
    } catch (error) {
      // Cut off, garbled, or the connection reset mid-body: transient.
      const reason = error instanceof SyntaxError ? 'not JSON, or cut off' : `lost (${(error as Error).message})`;
      throw Object.assign(new ApiError('Schema', `${endpoint} answered with a body that is ${reason}`, { endpoint, cause: error }), {
        transient: true,
      });
    }
    if (typeof body?.access_token !== 'string' || body.access_token === '') {
      throw new ApiError('Schema', `${endpoint} answered without an access_token`, { endpoint });
    }
    cached = { token: body.access_token, expiresAt: expiryOf(body.access_token, body.expires_in, now()) };
    return body.access_token;
  }

  return {
    async getToken(signal) {
      if (cached && now() < cached.expiresAt - skewMs) return cached.token;
      inflight ??= request(signal).finally(() => {
        inflight = undefined;
      });
      return inflight;
    },
    invalidate() {
      cached = undefined;
    },
  };
}

/** Expiry from `expires_in`, else from the JWT's `exp`, else a conservative minute. */
function expiryOf(token: string, expiresIn: unknown, nowMs: number): number {
  if (typeof expiresIn === 'number' && expiresIn > 0) return nowMs + expiresIn * 1000;
  try {
    const { exp } = decodeJwt(token);
    if (typeof exp === 'number') return exp * 1000;
  } catch {
    // Opaque token: fall through.
  }
  return nowMs + 60_000;
}

/** A short-lived assertion signed with the client's private key: iss = sub = client id, aud = token URL. */
async function clientAssertion(opts: TokenSourceOptions, nowMs: number): Promise<string> {
  const alg = opts.algorithm ?? 'PS256';
  let key;
  try {
    key = await importPKCS8(opts.clientSecret, alg);
  } catch (error) {
    throw new ApiError('Schema', `The private key cannot be used for ${alg}: ${(error as Error).message}`, { endpoint: 'POST token' });
  }
  const iat = Math.floor(nowMs / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg, ...(opts.keyId ? { kid: opts.keyId } : {}) })
    .setIssuer(opts.clientId)
    .setSubject(opts.clientId)
    .setAudience(opts.tokenUrl)
    .setJti(randomUUID())
    .setIssuedAt(iat)
    .setExpirationTime(iat + 60)
    .sign(key);
}
