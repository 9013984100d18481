import { ConsentsListV2, type Consent } from '../../../shared/schemas/consent.js';
import type { TokenSource } from '../auth/token-source.js';
import { ApiError, errorFromResponse, networkError } from './errors.js';

/**
 * Client of the intermediary's Consent API, first cut: the paged consent list. Responses are
 * parsed with the shared schemas; a payload that does not fit becomes a Schema error naming
 * the failing path, never a half-read page.
 */
export interface ConsentClientOptions {
  baseUrl: string;
  tokens: TokenSource;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

export interface ConsentPage {
  consents: Consent[];
  page: number;
  totalPages: number;
  totalRecords: number;
}

export class ConsentClient {
  private readonly baseUrl: URL;
  private readonly tokens: TokenSource;
  private readonly doFetch: typeof fetch;
  private readonly timeoutMs: number;

  constructor(opts: ConsentClientOptions) {
    this.baseUrl = new URL(opts.baseUrl.endsWith('/') ? opts.baseUrl : `${opts.baseUrl}/`);
    this.tokens = opts.tokens;
    this.doFetch = opts.fetch ?? fetch;
    this.timeoutMs = opts.timeoutMs ?? 30_000;
  }

  /** GET with a bearer token; on 401 the token is renewed once and the call repeated. */
  private async getJson(url: URL, endpoint: string, signal?: AbortSignal): Promise<unknown> {
    for (let attempt = 0; ; attempt++) {
      const token = await this.tokens.getToken(signal);
      const timeout = AbortSignal.timeout(this.timeoutMs);
      let response: Response;
      try {
        response = await this.doFetch(url, {
          headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
      } catch (error) {
        if (signal?.aborted) throw error;
        throw networkError(endpoint, error);
      }
      if (response.status === 401 && attempt === 0) {
        await response.body?.cancel();
        this.tokens.invalidate();
        continue;
      }
      if (!response.ok) throw await errorFromResponse(response, endpoint);
      const text = await response.text();
      try {
        return JSON.parse(text);
      } catch (error) {
        throw new ApiError('Schema', `${endpoint} answered with a body that is not JSON (${text.length} bytes)`, {
          endpoint,
          status: response.status,
          cause: error,
        });
      }
    }
  }

  /**
   * Every page of `GET /consents/v2`, following `links.next` as the server returns it. A next
   * link to another origin is refused: the bearer token must never leave the intermediary.
   */
  async *listConsentPages(opts: { pageSize?: number; signal?: AbortSignal } = {}): AsyncGenerator<ConsentPage> {
    let url: URL | undefined = new URL('consents/v2', this.baseUrl);
    url.searchParams.set('page', '1');
    url.searchParams.set('pageSize', String(opts.pageSize ?? 500));
    let pageNumber = 1;
    const seen = new Set<string>();
    while (url) {
      if (seen.has(url.href))
        throw new ApiError('Schema', `GET /consents/v2: links.next repeats ${url.pathname}${url.search}`, { endpoint: 'GET /consents/v2' });
      seen.add(url.href);
      const body = await this.getJson(url, 'GET /consents/v2', opts.signal);
      const parsed = ConsentsListV2.safeParse(body);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw new ApiError('Schema', `GET /consents/v2 page ${pageNumber}: ${issue.path.join('.') || '(body)'}: ${issue.message}`, {
          endpoint: 'GET /consents/v2',
        });
      }
      const { consents, links, meta } = parsed.data;
      yield { consents, page: pageNumber, totalPages: meta.totalPages, totalRecords: meta.totalRecords };
      url = links.next ? this.resolveNext(links.next) : undefined;
      pageNumber++;
    }
  }

  private resolveNext(next: string): URL {
    const resolved = new URL(next, this.baseUrl);
    if (resolved.origin !== this.baseUrl.origin) {
      throw new ApiError('Schema', `GET /consents/v2: links.next points to another origin (${resolved.origin}); not followed`, {
        endpoint: 'GET /consents/v2',
      });
    }
    return resolved;
  }
}
