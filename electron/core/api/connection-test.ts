import type { TokenSource } from '../auth/token-source.js';
import { ApiError, errorFromResponse, networkError } from './errors.js';

/**
 * "Test connection": a token, then one call, each step reporting precisely what failed — the host
 * name, TLS, the credentials (invalid_client), the scope, the path — in words an operator can act on.
 */
export interface ConnectionStep {
  step: 'token' | 'consent-list';
  ok: boolean;
  detail: string;
}

/** The system error under a fetch failure: its code (ENOTFOUND, ECONNREFUSED…) and message. */
function cause(error: unknown): { code: string | undefined; message: string } {
  const c = (error as { cause?: { code?: string; cause?: { code?: string }; message?: string } }).cause;
  return { code: c?.code ?? c?.cause?.code, message: c?.message ?? (error as Error).message };
}

export function explain(error: unknown, url: string): string {
  const host = (() => {
    try {
      return new URL(url).host;
    } catch {
      return url;
    }
  })();
  if (error instanceof ApiError) {
    if (error.kind === 'Network') {
      const c = cause(error.cause);
      if (c.code === 'ENOTFOUND' || c.code === 'EAI_AGAIN') return `DNS: the host ${host} cannot be found.`;
      if (c.code === 'ECONNREFUSED') return `Nothing accepts connections at ${host} (connection refused).`;
      if (c.code === 'ETIMEDOUT' || c.code === 'UND_ERR_CONNECT_TIMEOUT') return `${host} does not answer (timed out).`;
      if (/CERT|SSL|TLS|self[- ]signed/i.test(`${c.code} ${c.message}`))
        return `TLS: the certificate of ${host} is not trusted (${c.code ?? c.message}).`;
      return `${host} cannot be reached (${c.code ?? c.message}).`;
    }
    if (error.endpoint === 'POST token' && error.status === 401)
      return `The token endpoint refused the client credentials (invalid_client): check the client id and secret or key.`;
    if (error.status === 401) return `The API refused the access token (401): the token URL may belong to another environment.`;
    if (error.status === 403) return `The access token lacks a scope this call needs (403): ${error.message}.`;
    if (error.status === 404) return `Not found (404) at ${url}: check the base URL and its path.`;
    return error.message;
  }
  return (error as Error).message;
}

export async function testConnection(
  tokens: TokenSource,
  baseUrl: string,
  tokenUrl: string,
  doFetch: typeof fetch = fetch,
): Promise<{ ok: boolean; steps: ConnectionStep[] }> {
  const steps: ConnectionStep[] = [];
  let token: string;
  try {
    tokens.invalidate();
    token = await tokens.getToken();
    steps.push({ step: 'token', ok: true, detail: `An access token was issued by ${tokenUrl}.` });
  } catch (error) {
    steps.push({ step: 'token', ok: false, detail: explain(error, tokenUrl) });
    return { ok: false, steps };
  }
  const url = new URL('consents/v2?page=1&pageSize=1', baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`).href;
  try {
    const res = await doFetch(url, {
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      signal: AbortSignal.timeout(15_000),
    });
    if (!res.ok) throw await errorFromResponse(res, 'GET /consents/v2');
    const body = (await res.json()) as { meta?: { totalRecords?: number } };
    steps.push({ step: 'consent-list', ok: true, detail: `GET /consents/v2 answered: ${body.meta?.totalRecords ?? '?'} consents.` });
    return { ok: true, steps };
  } catch (error) {
    steps.push({
      step: 'consent-list',
      ok: false,
      detail: explain(error instanceof ApiError ? error : networkError('GET /consents/v2', error), url),
    });
    return { ok: false, steps };
  }
}
