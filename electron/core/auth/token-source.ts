import { decodeJwt } from 'jose';
import { ApiError, errorFromResponse, networkError } from '../api/errors.js';

/**
 * OAuth2 client-credentials token source. Caches the access token until shortly before it
 * expires; `invalidate()` drops it (the API client calls that once after a 401). The secret
 * stays in this object: it is never logged, returned, or sent anywhere but the token URL.
 */
export interface TokenSourceOptions {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  /** client_secret_basic (HTTP Basic) or client_secret_post (form fields). */
  method: 'client_secret_basic' | 'client_secret_post';
  scopes: readonly string[];
  /** Renew this many seconds before expiry. */
  skewSeconds?: number;
  fetch?: typeof fetch;
  now?: () => number;
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

  async function request(signal?: AbortSignal): Promise<string> {
    const endpoint = 'POST token';
    const form = new URLSearchParams({ grant_type: 'client_credentials' });
    if (opts.scopes.length) form.set('scope', opts.scopes.join(' '));
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
    if (opts.method === 'client_secret_basic') {
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
    if (!response.ok) throw await errorFromResponse(response, endpoint);
    let body: { access_token?: unknown; expires_in?: unknown };
    try {
      body = (await response.json()) as typeof body;
    } catch (error) {
      throw new ApiError('Schema', `${endpoint} answered with a body that is not JSON`, { endpoint, cause: error });
    }
    if (typeof body.access_token !== 'string' || body.access_token === '') {
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
