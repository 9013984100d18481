import type { z } from 'zod';
import { consentApi, type Consent, type ConsentEvent, type ConsentListFilterOf, type UseCase } from '../../../shared/schemas/consent.js';
import type { UnknownValue } from '../../../shared/schemas/parse.js';
import type { TokenSource } from '../auth/token-source.js';
import { ApiError } from './errors.js';
import { ApiHttp, pathSegment, type HttpOptions } from './http.js';

/**
 * Typed client of the intermediary's Consent API: every endpoint, current and deprecated,
 * responses parsed with the shared schemas (unknown enum values reported, not rejected), pages
 * followed through `links.next` on the same origin only.
 */
const S = consentApi;
const pair = <K extends keyof typeof S.tolerant>(k: K) => ({ tolerant: S.tolerant[k], strict: S.strict[k] });

export interface ConsentClientOptions extends Omit<HttpOptions, 'tokens' | 'baseUrl'> {
  baseUrl: string;
  tokens: TokenSource;
}

export interface Page<T> {
  items: T[];
  page: number;
  totalPages: number;
  totalRecords: number;
  unknownValues: UnknownValue[];
}

export interface ConsentPage extends Page<Consent> {
  consents: Consent[];
}

export type ConsentListFilter = ConsentListFilterOf<string>;

export interface EventFilter {
  consentId?: string;
  eventTypes?: string[];
  oldest?: string;
  newest?: string;
}

export type RevokeOutcome = 'revoked' | 'already-inactive';

/** The fields PATCH /consents/{id} may change. */
export interface ConsentChangeRequest {
  externalId?: string | null | undefined;
  postUsageAction?: string | undefined;
  directMarketingAllowed?: boolean | undefined;
}

export class ConsentClient {
  readonly http: ApiHttp;

  constructor(opts: ConsentClientOptions) {
    this.http = new ApiHttp(opts);
  }

  /** Pages of a list, following links.next as the server returns it (same origin only, no loops). */
  private async *pages<T extends z.ZodType, I>(
    endpoint: string,
    first: { path: string; query: Record<string, string | number | boolean | readonly string[] | undefined> },
    schema: { tolerant: T; strict: z.ZodType },
    read: (body: z.output<T>) => { items: I[]; totalPages: number; totalRecords: number; next?: string | null | undefined },
    signal?: AbortSignal,
  ): AsyncGenerator<Page<I>> {
    let path: string | undefined = first.path;
    let query: typeof first.query | undefined = first.query;
    const seen = new Set<string>();
    for (let page = Number(first.query.page ?? 1); path; page++) {
      const href = this.http.url(path, query).href;
      if (seen.has(href))
        throw new ApiError('Schema', `${endpoint}: links.next repeats ${new URL(href).pathname}${new URL(href).search}`, { endpoint });
      seen.add(href);
      const res = await this.http.request({ method: 'GET', path: href, schema, endpoint, ...(signal ? { signal } : {}) });
      const body = read(res.data);
      yield { items: body.items, page, totalPages: body.totalPages, totalRecords: body.totalRecords, unknownValues: res.unknownValues };
      if (body.next) {
        const next = new URL(body.next, this.http.baseUrl);
        if (next.origin !== this.http.baseUrl.origin) {
          throw new ApiError('Schema', `${endpoint}: links.next points to another origin (${next.origin}); not followed`, { endpoint });
        }
        path = next.href;
      } else path = undefined;
      query = undefined;
    }
  }

  /** GET /consents/v2, every page. */
  async *listConsentPages(
    opts: { pageSize?: number; startPage?: number; filter?: ConsentListFilter; signal?: AbortSignal } = {},
  ): AsyncGenerator<ConsentPage> {
    const query = { ...opts.filter, page: opts.startPage ?? 1, pageSize: opts.pageSize ?? 500 };
    for await (const p of this.pages(
      'GET /consents/v2',
      { path: 'consents/v2', query },
      pair('ConsentsListV2'),
      (b) => ({ items: b.consents, totalPages: b.meta.totalPages, totalRecords: b.meta.totalRecords, next: b.links.next }),
      opts.signal,
    )) {
      yield { ...p, consents: p.items };
    }
  }

  /** GET /consent: the deprecated bare array (old deployments). */
  async listConsentsV1(
    filter: Omit<ConsentListFilter, 'useCaseIds'> & { useCases?: string[] } = {},
    signal?: AbortSignal,
  ): Promise<Consent[]> {
    return (
      await this.http.request({
        method: 'GET',
        path: 'consent',
        query: filter,
        schema: pair('ConsentArray'),
        endpoint: 'GET /consent',
        ...(signal ? { signal } : {}),
      })
    ).data;
  }

  async getConsent(consentId: string, signal?: AbortSignal): Promise<Consent> {
    const path = `consents/${pathSegment(consentId, 'consent id', 'the Consent API')}`;
    return (
      await this.http.request({
        method: 'GET',
        path,
        schema: pair('Consent'),
        endpoint: 'GET /consents/{id}',
        ...(signal ? { signal } : {}),
      })
    ).data;
  }

  /** A change is known to have happened when the consent's version moved past `before`. */
  private versionReconcile(consentId: string, before: number | null | undefined, done?: (c: Consent) => boolean) {
    return async () => {
      const now = await this.getConsent(consentId);
      return (now.version ?? 0) > (before ?? 0) || done?.(now) ? ('done' as const) : ('retry' as const);
    };
  }

  /** PATCH /consents/{id}: externalId, postUsageAction, directMarketingAllowed. */
  async updateConsent(consentId: string, change: ConsentChangeRequest, signal?: AbortSignal): Promise<Consent> {
    const before = await this.getConsent(consentId, signal);
    const res = await this.http.request({
      method: 'PATCH',
      path: `consents/${pathSegment(consentId, 'consent id', 'the Consent API')}`,
      body: change,
      schema: pair('Consent'),
      endpoint: 'PATCH /consents/{id}',
      reconcile: this.versionReconcile(consentId, before.version),
      ...(signal ? { signal } : {}),
    });
    return res.reconciled ? this.getConsent(consentId, signal) : res.data;
  }

  /** DELETE /consents/{id}: 'already-inactive' for the 422 of a consent that is not ACTIVE. */
  async revokeConsent(consentId: string, signal?: AbortSignal): Promise<RevokeOutcome> {
    const before = await this.getConsent(consentId, signal);
    try {
      await this.http.request({
        method: 'DELETE',
        path: `consents/${pathSegment(consentId, 'consent id', 'the Consent API')}`,
        endpoint: 'DELETE /consents/{id}',
        reconcile: this.versionReconcile(consentId, before.version, (c) => c.status === 'REVOKED'),
        ...(signal ? { signal } : {}),
      });
      return 'revoked';
    } catch (error) {
      if (error instanceof ApiError && error.kind === 'Unprocessable') return 'already-inactive';
      throw error;
    }
  }

  /** POST /consents: a REQUESTED consent. Not retried after an unknown outcome (it has no id to look up). */
  async createConsent(body: Record<string, unknown>, signal?: AbortSignal): Promise<Consent> {
    return (
      await this.http.request({
        method: 'POST',
        path: 'consents',
        body,
        schema: pair('Consent'),
        endpoint: 'POST /consents',
        ...(signal ? { signal } : {}),
      })
    ).data;
  }

  /** POST /consents/{id}/authorization: creation (REQUESTED) or extension (ACTIVE). Safe to repeat. */
  async startAuthorization(consentId: string, body: { state: string; redirectUri: string; sharingEndDate?: string }, signal?: AbortSignal) {
    return (
      await this.http.request({
        method: 'POST',
        path: `consents/${pathSegment(consentId, 'consent id', 'the Consent API')}/authorization`,
        body,
        schema: pair('ConsentAuthorization'),
        endpoint: 'POST /consents/{id}/authorization',
        reconcile: async () => 'retry',
        ...(signal ? { signal } : {}),
      })
    ).data;
  }

  /** PATCH /consents/{id}/authorization with the data holder's response JWT. */
  async completeAuthorization(consentId: string, response: string, signal?: AbortSignal) {
    const before = await this.getConsent(consentId, signal);
    const res = await this.http.request({
      method: 'PATCH',
      path: `consents/${pathSegment(consentId, 'consent id', 'the Consent API')}/authorization`,
      body: { response },
      schema: pair('ConsentActivatedResponse'),
      endpoint: 'PATCH /consents/{id}/authorization',
      reconcile: this.versionReconcile(consentId, before.version),
      ...(signal ? { signal } : {}),
    });
    return res.reconciled ? { activeConsentId: consentId } : res.data;
  }

  /** Deprecated GET /consents/{id}/authorization (old deployments). */
  async startAuthorizationLegacy(consentId: string, query: { state: string; redirectUri: string }, signal?: AbortSignal) {
    return (
      await this.http.request({
        method: 'GET',
        path: `consents/${pathSegment(consentId, 'consent id', 'the Consent API')}/authorization`,
        query,
        schema: pair('ConsentAuthorization'),
        endpoint: 'GET /consents/{id}/authorization',
        ...(signal ? { signal } : {}),
      })
    ).data;
  }

  /** Deprecated POST /tokens: `response`, or `code` + `state` + `id_token` (Hybrid Flow). */
  async postTokens(body: { response: string } | { code: string; state: string; id_token: string }, signal?: AbortSignal) {
    return (
      await this.http.request({
        method: 'POST',
        path: 'tokens',
        body,
        schema: pair('TokenCreatedResponse'),
        endpoint: 'POST /tokens',
        ...(signal ? { signal } : {}),
      })
    ).data;
  }

  /** GET /consents/events, every page (`page-size`, eventTypes sent repeated). */
  async *listEventPages(opts: { pageSize?: number; filter?: EventFilter; signal?: AbortSignal } = {}): AsyncGenerator<Page<ConsentEvent>> {
    const query = { ...opts.filter, page: 1, 'page-size': opts.pageSize ?? 500 };
    yield* this.pages(
      'GET /consents/events',
      { path: 'consents/events', query },
      pair('ConsentEventList'),
      (b) => ({ items: b.data.events, totalPages: b.meta.totalPages, totalRecords: b.meta.totalRecords, next: b.links.next }),
      opts.signal,
    );
  }

  async listUseCases(opts: { combineScopes?: boolean; active?: boolean } = {}, signal?: AbortSignal): Promise<UseCase[]> {
    return (
      await this.http.request({
        method: 'GET',
        path: 'use-cases',
        query: opts,
        schema: pair('UseCaseArray'),
        endpoint: 'GET /use-cases',
        ...(signal ? { signal } : {}),
      })
    ).data;
  }

  async listDataHolders(softwareProductId: string, signal?: AbortSignal) {
    return (
      await this.http.request({
        method: 'GET',
        path: `software-products/${pathSegment(softwareProductId, 'software product id', 'the Consent API')}/data-holders`,
        schema: pair('DataHolderArray'),
        endpoint: 'GET /software-products/{id}/data-holders',
        ...(signal ? { signal } : {}),
      })
    ).data;
  }
}
