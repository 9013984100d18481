import type { IncomingMessage, ServerResponse } from 'node:http';
import { PRODUCT_CATEGORIES } from '../../shared/schemas/data-api.js';
import type { Route, SandboxContext } from './context.js';
import { dateParam, err, intParam, listParam, pageLinks, sendErrors, sendJson } from './http.js';
import { toLegacyShape } from './products.js';
import { ACCOUNT_FACTS, RecordSource, type RecordKind, type TxWindow } from './records.js';

/* Records are loose JSON. */
type Json = Record<string, unknown>;

/**
 * The Data API: banking, common and energy records behind consents, and the product and plan
 * catalogues. Envelope `{data: {<collection>: [...]}, links, meta}`, `page` + `pageSize` (max 1000,
 * default 25), the intermediary's id filters, and kind-specific filters. Data API 2.0.0 shapes by
 * default; 1.x shapes for `x-v: 1` and for the data holders configured as legacy.
 */
const sources = new WeakMap<SandboxContext, RecordSource>();
const source = (ctx: SandboxContext) => {
  let s = sources.get(ctx);
  if (!s) sources.set(ctx, (s = new RecordSource(ctx.world)));
  return s;
};

function legacyFor(req: IncomingMessage, ctx: SandboxContext, holder: number): boolean {
  return req.headers['x-v'] === '1' || holder < ctx.legacyHolders;
}

export type RecordFilter = (record: Json) => boolean;

/** A list parameter whose values the document enumerates: undefined when absent, an error message for a value outside. */
function enumParam(q: URLSearchParams, name: string, allowed: readonly string[]): string[] | undefined | string {
  const values = listParam(q, name);
  const bad = values?.find((v) => !allowed.includes(v));
  return bad !== undefined ? `${name}: ${JSON.stringify(bad.slice(0, 60))} is not one of ${allowed.join(', ')}` : values;
}

const DAY_MS = 86_400_000;

/** A YYYY-MM-DD parameter: undefined when absent, false when not a real date. */
function dayParam(q: URLSearchParams, name: string): string | undefined | false {
  const raw = q.get(name);
  if (raw === null) return undefined;
  return /^\d{4}-\d{2}-\d{2}$/.test(raw) && new Date(`${raw}T00:00:00Z`).toISOString().startsWith(raw) ? raw : false;
}

/** The day `months` calendar months before `day` (YYYY-MM-DD), clamped to the month's end. */
function monthsBefore(day: string, months: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const first = new Date(Date.UTC(y, m - 1 - months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  return new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), Math.min(d, last))).toISOString().slice(0, 10);
}

/**
 * A transaction listing's bounds as the document says: `newestTime` defaults to now, `oldestTime` to
 * newest-time minus 90 days; `oldestRetrievalTime` / `newestRetrievalTime` bound the intermediary's
 * retrieval time when given. An error message for a bad value.
 */
export function transactionWindow(q: URLSearchParams, now: number): TxWindow | string {
  const times: Partial<Record<'oldestTime' | 'newestTime' | 'oldestRetrievalTime' | 'newestRetrievalTime', number>> = {};
  for (const name of ['oldestTime', 'newestTime', 'oldestRetrievalTime', 'newestRetrievalTime'] as const) {
    const t = dateParam(q, name);
    if (typeof t === 'string') return t;
    if (t !== undefined) times[name] = t;
  }
  const newest = times.newestTime ?? now;
  const oldest = times.oldestTime ?? newest - 90 * DAY_MS;
  if (oldest > newest) return 'oldestTime must not be after newestTime';
  return {
    oldest,
    newest,
    ...(times.oldestRetrievalTime !== undefined ? { retrievedFrom: times.oldestRetrievalTime } : {}),
    ...(times.newestRetrievalTime !== undefined ? { retrievedTo: times.newestRetrievalTime } : {}),
  };
}

/** The kind-specific filters of an endpoint; an error message for a bad value. */
export function recordFilters(kind: RecordKind, q: URLSearchParams, now: number): RecordFilter[] | string {
  const filters: RecordFilter[] = [];
  const accountIds = listParam(q, 'accountIds');
  if (
    accountIds &&
    ['accounts', 'balances', 'transactions', 'directDebits', 'scheduledPayments', 'energyAccounts', 'invoices', 'bills'].includes(kind)
  ) {
    const set = new Set(accountIds);
    filters.push((r) => set.has(String(r.accountId ?? (r.from as Json | undefined)?.accountId)));
  }
  if (kind === 'accounts' || kind === 'directDebits' || kind === 'scheduledPayments') {
    // Accounts answer for themselves; a direct debit or a scheduled payment for the account it draws on.
    const facts = (r: Json): Json => (kind === 'accounts' ? r : ((r as Record<symbol, unknown>)[ACCOUNT_FACTS] as Json));
    const owned = q.get('isOwned');
    if (owned !== null) {
      if (owned !== 'true' && owned !== 'false') return 'isOwned must be true or false';
      filters.push((r) => facts(r).isOwned === (owned === 'true'));
    }
    const open = enumParam(q, 'openStatus', ['OPEN', 'CLOSED']);
    if (typeof open === 'string') return open;
    if (open) filters.push((r) => open.includes(String(facts(r).openStatus)));
    const categories = enumParam(q, 'productCategories', PRODUCT_CATEGORIES);
    if (typeof categories === 'string') return categories;
    if (categories) filters.push((r) => categories.includes(String(facts(r).productCategory)));
  }
  if (kind === 'transactions') {
    const types = listParam(q, 'types');
    if (types) filters.push((r) => types.includes(String(r.type)));
    const statuses = listParam(q, 'statuses');
    if (statuses) filters.push((r) => statuses.includes(String(r.status)));
    for (const [name, test] of [
      ['minimumAmount', (a: number, b: number) => a >= b],
      ['maximumAmount', (a: number, b: number) => a <= b],
    ] as const) {
      const v = q.get(name);
      if (v === null) continue;
      if (!/^-?\d+(\.\d+)?$/.test(v)) return `${name} must be an amount`;
      filters.push((r) => test(Number(r.amount), Number(v)));
    }
  }
  if (kind === 'payees') {
    const types = listParam(q, 'types');
    if (types) filters.push((r) => types.includes(String(r.type)));
    const ids = listParam(q, 'payeeIds');
    if (ids) filters.push((r) => ids.includes(String(r.payeeId)));
  }
  if (kind === 'customers') {
    const types = enumParam(q, 'customerUTypes', ['person', 'organisation']);
    if (typeof types === 'string') return types;
    if (types) filters.push((r) => types.includes(String(r.customerUType)));
  }
  if (kind === 'invoices') {
    // The document filters "on the invoiceId field", which EnergyInvoice does not have: its number.
    const ids = listParam(q, 'invoiceIds');
    if (ids) filters.push((r) => ids.includes(String(r.invoiceNumber)));
  }
  if (kind === 'bills' && q.get('billingIds') !== null)
    return 'billingIds cannot be applied: the document filters on a billingId field that no billing transaction has';
  if (kind === 'servicePoints' || kind === 'usage') {
    const ids = listParam(q, 'servicePointIds');
    if (ids) filters.push((r) => ids.includes(String(r.servicePointId)));
  }
  if (kind === 'usage') {
    // Absent, the window is the last 24 months to today: every read the sandbox has, so no filter.
    const oldest = dayParam(q, 'oldestDate');
    const newest = dayParam(q, 'newestDate');
    if (oldest === false || newest === false) return `${oldest === false ? 'oldestDate' : 'newestDate'} must be a date (YYYY-MM-DD)`;
    if (oldest !== undefined || newest !== undefined) {
      const to = newest ?? new Date(now).toISOString().slice(0, 10);
      const from = oldest ?? monthsBefore(to, 24);
      if (from > to) return 'oldestDate must not be after newestDate';
      filters.push((r) => String(r.readStartDate) >= from && String(r.readStartDate) <= to);
    }
  }
  return filters;
}

/** Consents whose records are asked for: the id filters of every consent-derived endpoint. */
function candidateConsents(ctx: SandboxContext, q: URLSearchParams): number[] {
  const world = ctx.world;
  const consentIds = listParam(q, 'consentIds');
  const arrangements = listParam(q, 'cdrArrangementIds');
  const consumers = listParam(q, 'consumerIds');
  const holders = listParam(q, 'dataHolderBrandIds');
  const useCases = listParam(q, 'useCaseIds');
  let indexes: number[];
  if (consentIds) indexes = consentIds.map((id) => world.indexOf(id)).filter((i): i is number => i !== undefined);
  else {
    const all = world.filterConsents({ status: 'ACTIVE', ...(useCases ? { useCaseIds: useCases } : {}) });
    indexes = Array.isArray(all) ? all : Array.from({ length: all.count }, (_, k) => all.at(k));
  }
  if (!arrangements && !consumers && !holders && !(consentIds && useCases)) return indexes;
  return indexes.filter((i) => {
    const c = world.consent(i);
    return (
      (!arrangements || arrangements.includes(c.cdrArrangementId ?? '')) &&
      (!consumers || consumers.includes(c.consumerId ?? '')) &&
      (!holders || holders.includes(c.dataHolderBrandId ?? '')) &&
      (!useCases || useCases.includes(c.useCase?.id ?? ''))
    );
  });
}

/**
 * The consents with records of a kind for a query's id filters, in serving order, and the running
 * total of their records (`ends[j]`: records up to and including consent j): what every page of a
 * listing needs. Building it walks every consent; it is kept per (kind, id filters) until the world
 * changes (a revocation, an update, a new consent, a clock move) or the clock reaches the first
 * sharing end among them (an expiry), so a page costs its own records plus a binary search.
 */
interface Candidates {
  indexes: Int32Array;
  ends: Float64Array;
  changes: number;
  builtAt: number;
  validUntil: number;
}

const CANDIDATE_PARAMS = ['consentIds', 'cdrArrangementIds', 'consumerIds', 'dataHolderBrandIds', 'useCaseIds'] as const;
const MAX_CACHED = 32;
const candidateCaches = new WeakMap<SandboxContext, Map<string, Candidates>>();

function candidatesWithRecords(
  ctx: SandboxContext,
  src: RecordSource,
  kind: RecordKind,
  q: URLSearchParams,
  window: TxWindow | undefined,
): Candidates {
  let cache = candidateCaches.get(ctx);
  if (!cache) candidateCaches.set(ctx, (cache = new Map()));
  const key = JSON.stringify([kind, window ?? null, ...CANDIDATE_PARAMS.map((name) => listParam(q, name) ?? null)]);
  const world = ctx.world;
  const now = world.now();
  const hit = cache.get(key);
  if (hit && hit.changes === world.changes && now >= hit.builtAt && now < hit.validUntil) return hit;
  if (hit) cache.delete(key);
  const changes = world.changes;
  const indexes: number[] = [];
  const ends: number[] = [];
  let total = 0;
  // Accounts gain transactions as the clock moves.
  let validUntil = kind === 'transactions' ? world.dataNowUntil() : Infinity;
  for (const index of candidateConsents(ctx, q)) {
    const n = src.count(kind, index, window);
    if (n === 0) continue;
    indexes.push(index);
    ends.push((total += n));
    validUntil = Math.min(validUntil, world.expiresAt(index));
  }
  const entry: Candidates = { indexes: Int32Array.from(indexes), ends: Float64Array.from(ends), changes, builtAt: now, validUntil };
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
  cache.set(key, entry);
  return entry;
}

/** The first position j with ends[j] > offset (the consent holding record `offset`); ends.length when none. */
function consentAt(ends: Float64Array, offset: number): number {
  let lo = 0;
  let hi = ends.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ends[mid]! > offset) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * One page of a consent-derived listing: the records at [offset, offset + pageSize) of every
 * candidate consent's records in order (after the kind-specific filters), and how many there are.
 */
export function consentRecordsPage(
  ctx: SandboxContext,
  kind: RecordKind,
  q: URLSearchParams,
  filters: RecordFilter[],
  offset: number,
  pageSize: number,
  legacyHeader: boolean,
  window?: TxWindow,
): { records: Json[]; total: number } {
  const src = source(ctx);
  const { indexes, ends } = candidatesWithRecords(ctx, src, kind, q, window);
  const legacy = (index: number) => legacyHeader || src.consentBasis(index)!.holder < ctx.legacyHolders;
  const out: Json[] = [];
  if (filters.length === 0) {
    // Without record filters, whole consents before the page are skipped by their running total.
    for (let j = consentAt(ends, offset); j < indexes.length && out.length < pageSize; j++) {
      const index = indexes[j]!;
      const before = j === 0 ? 0 : ends[j - 1]!;
      const n = ends[j]! - before;
      const from = Math.max(0, offset - before);
      for (const record of src.records(kind, index, from, Math.min(n, from + pageSize - out.length), legacy(index), window))
        out.push(record);
    }
    return { records: out, total: ends.length ? ends[ends.length - 1]! : 0 };
  }
  let total = 0;
  for (let j = 0; j < indexes.length; j++) {
    const index = indexes[j]!;
    const n = ends[j]! - (j === 0 ? 0 : ends[j - 1]!);
    for (const record of src.records(kind, index, 0, n, legacy(index), window)) {
      if (!filters.every((f) => f(record))) continue;
      if (total >= offset && out.length < pageSize) out.push(record);
      total++;
    }
  }
  return { records: out, total };
}

function consentData(kind: RecordKind, collection: string, path: string): Route['handler'] {
  return (req: IncomingMessage, res: ServerResponse, _p: string[], url: URL, ctx: SandboxContext) => {
    const q = url.searchParams;
    const page = intParam(q, 'page', 1, 1_000_000_000, 1);
    const pageSize = intParam(q, 'pageSize', 1, 1000, 25);
    const now = ctx.world.dataNow();
    const filters = recordFilters(kind, q, now);
    const window = kind === 'transactions' ? transactionWindow(q, now) : undefined;
    const problem = [page, pageSize, filters, window].find((x) => typeof x === 'string');
    if (problem) return sendErrors(res, 400, [err.invalidField(problem as string)]);
    const offset = ((page as number) - 1) * (pageSize as number);
    const { records, total } = consentRecordsPage(
      ctx,
      kind,
      q,
      filters as RecordFilter[],
      offset,
      pageSize as number,
      req.headers['x-v'] === '1',
      window as TxWindow | undefined,
    );
    sendJson(res, 200, {
      data: { [collection]: records },
      links: pageLinks(ctx.url, path, q, page as number, pageSize as number, total, 'pageSize'),
      meta: { totalPages: Math.ceil(total / (pageSize as number)), totalRecords: total },
    });
  };
}

/**
 * The admin API's change of a product's fee between syncs (a data holder repricing): the named fee's
 * fixed amount becomes `amount` from now on. Returns the product, or undefined when there is no such
 * product or fee.
 */
export function changeProductFee(
  ctx: SandboxContext,
  productId: string,
  feeName: string,
  amount: string,
): Record<string, unknown> | undefined {
  const src = source(ctx);
  for (let i = 0; i < ctx.world.gen.holders.length; i++) {
    const product = src.products(i).find((p) => p.productId === productId);
    if (!product) continue;
    const fee = ((product.fees as Record<string, unknown>[] | undefined) ?? []).find((f) => f.name === feeName);
    if (!fee) return undefined;
    fee.feeMethodUType = 'fixedAmount';
    fee.fixedAmount = { amount };
    for (const k of ['rateBased', 'variable']) delete fee[k];
    product.lastUpdated = new Date(ctx.world.now()).toISOString();
    return product;
  }
  return undefined;
}

/** GET /data/banking/products: every banking data holder's catalogue (no consent needed). */
function products(req: IncomingMessage, res: ServerResponse, _p: string[], url: URL, ctx: SandboxContext): void {
  const q = url.searchParams;
  const page = intParam(q, 'page', 1, 1_000_000_000, 1);
  const pageSize = intParam(q, 'pageSize', 1, 1000, 25);
  const problem = [page, pageSize].find((x) => typeof x === 'string');
  if (problem) return sendErrors(res, 400, [err.invalidField(problem as string)]);
  const holders = listParam(q, 'dataHolderBrandIds');
  const categories = enumParam(q, 'productCategories', PRODUCT_CATEGORIES);
  if (typeof categories === 'string') return sendErrors(res, 400, [err.invalidField(categories)]);
  const ids = listParam(q, 'productIds');
  const src = source(ctx);
  const all = ctx.world.gen.holders.flatMap((h, i) =>
    holders && !holders.includes(h.dataHolderBrandId) ? [] : src.products(i).map((p) => (legacyFor(req, ctx, i) ? toLegacyShape(p) : p)),
  );
  const matching = all.filter(
    (p) => (!categories || categories.includes(String(p.productCategory))) && (!ids || ids.includes(String(p.productId))),
  );
  const offset = ((page as number) - 1) * (pageSize as number);
  sendJson(res, 200, {
    data: { products: matching.slice(offset, offset + (pageSize as number)) },
    links: pageLinks(ctx.url, '/data/banking/products', q, page as number, pageSize as number, matching.length, 'pageSize'),
    meta: { totalPages: Math.ceil(matching.length / (pageSize as number)), totalRecords: matching.length },
  });
}

/**
 * GET /data/energy/plans: energy retailers' generally available plans, paged, with the filters of the
 * 1.1.0 document (planIds, planTypes, fuelTypes, effective, updatedSince; the 2.0.0 changelog removed
 * their components as never used by live endpoints, so a client should not rely on them).
 */
function plans(_req: IncomingMessage, res: ServerResponse, _p: string[], url: URL, ctx: SandboxContext): void {
  const q = url.searchParams;
  const page = intParam(q, 'page', 1, 1_000_000_000, 1);
  const pageSize = intParam(q, 'pageSize', 1, 1000, 25);
  const types = enumParam(q, 'planTypes', ['STANDING', 'MARKET', 'REGULATED']);
  const fuels = enumParam(q, 'fuelTypes', ['ELECTRICITY', 'GAS', 'DUAL']);
  const effective = enumParam(q, 'effective', ['CURRENT', 'FUTURE']);
  const since = dateParam(q, 'updatedSince');
  const problem = [page, pageSize, types, fuels, effective, since].find((x) => typeof x === 'string');
  if (problem) return sendErrors(res, 400, [err.invalidField(problem as string)]);
  const holders = listParam(q, 'dataHolderBrandIds');
  const ids = listParam(q, 'planIds');
  const now = ctx.world.now();
  const all = ctx.world.gen.holders.flatMap((h, i) =>
    h.industry !== 'energy' || (holders && !holders.includes(h.dataHolderBrandId)) ? [] : energyPlans(h, i, ctx.world.gen.origin),
  );
  const matching = all.filter(
    (p) =>
      (!ids || ids.includes(p.planId)) &&
      (!types || types.includes(p.type)) &&
      (!fuels || fuels.includes(p.fuelType)) &&
      (!effective || effective.includes(p.effectiveFrom && Date.parse(p.effectiveFrom) > now ? 'FUTURE' : 'CURRENT')) &&
      (since === undefined || Date.parse(p.lastUpdated) >= (since as number)),
  );
  const offset = ((page as number) - 1) * (pageSize as number);
  sendJson(res, 200, {
    data: { plans: matching.slice(offset, offset + (pageSize as number)) },
    links: pageLinks(ctx.url, '/data/energy/plans', q, page as number, pageSize as number, matching.length, 'pageSize'),
    meta: { totalPages: Math.ceil(matching.length / (pageSize as number)), totalRecords: matching.length },
  });
}

const DISTRIBUTORS = ['Ausgrid', 'Endeavour Energy', 'Essential Energy', 'CitiPower', 'Energex', 'SA Power Networks'];

/** A retailer's plans: each fuel as a market and a standing offer, one market offer starting next month. */
function energyPlans(h: { brandName: string; dataHolderBrandId: string }, holder: number, origin: number) {
  const code = h.brandName.replace(/\W/g, '').toUpperCase();
  const fuelName = (fuel: string) => (fuel === 'DUAL' ? 'Dual Fuel' : fuel[0] + fuel.slice(1).toLowerCase());
  return (['ELECTRICITY', 'GAS', 'DUAL'] as const).flatMap((fuel, f) =>
    (['MARKET', 'STANDING'] as const).map((type) => {
      const future = type === 'MARKET' && f === 0;
      return {
        planId: `${code}-${fuel}${type === 'MARKET' ? '' : '-STANDING'}`,
        ...(future ? { effectiveFrom: new Date(origin + 30 * 86_400_000).toISOString() } : {}),
        lastUpdated: new Date(Date.UTC(2026, 8 + ((holder + f) % 3), 1)).toISOString(),
        displayName: `${h.brandName} ${fuelName(fuel)} ${type === 'MARKET' ? 'Saver' : 'Standing Offer'}`,
        description:
          type === 'MARKET' ? 'A market offer with a pay-on-time discount.' : 'The standing offer: regulated terms, no discounts.',
        type,
        fuelType: fuel,
        brand: h.dataHolderBrandId,
        brandName: h.brandName,
        customerType: 'RESIDENTIAL',
        geography: {
          includedPostcodes: ['2000', '3000', '4000', '5000'],
          distributors: [DISTRIBUTORS[(holder + f) % DISTRIBUTORS.length]!],
        },
      };
    }),
  );
}

export const dataRoutes: Route[] = [
  {
    method: 'GET',
    pattern: /^\/data\/banking\/accounts$/,
    scope: 'data:banking:accounts:read',
    handler: consentData('accounts', 'accounts', '/data/banking/accounts'),
  },
  {
    method: 'GET',
    pattern: /^\/data\/banking\/balances$/,
    scope: 'data:banking:accounts:read',
    handler: consentData('balances', 'balances', '/data/banking/balances'),
  },
  {
    method: 'GET',
    pattern: /^\/data\/banking\/transactions$/,
    scope: 'data:banking:transactions:read',
    handler: consentData('transactions', 'transactions', '/data/banking/transactions'),
  },
  {
    method: 'GET',
    pattern: /^\/data\/banking\/payees$/,
    scope: 'data:banking:payees:read',
    handler: consentData('payees', 'payees', '/data/banking/payees'),
  },
  {
    method: 'GET',
    pattern: /^\/data\/banking\/payments\/direct-debits$/,
    scope: 'data:banking:regular_payments:read',
    handler: consentData('directDebits', 'directDebitAuthorisations', '/data/banking/payments/direct-debits'),
  },
  {
    method: 'GET',
    pattern: /^\/data\/banking\/payments\/scheduled$/,
    scope: 'data:banking:regular_payments:read',
    handler: consentData('scheduledPayments', 'scheduledPayments', '/data/banking/payments/scheduled'),
  },
  // The public spec declares a token but no particular scope for products.
  { method: 'GET', pattern: /^\/data\/banking\/products$/, scope: '', handler: products },
  {
    method: 'GET',
    pattern: /^\/data\/common\/customers$/,
    scope: 'data:common:customers:read',
    handler: consentData('customers', 'customers', '/data/common/customers'),
  },
  { method: 'GET', pattern: /^\/data\/energy\/plans$/, scope: 'data:energy:plans:read', handler: plans },
  {
    method: 'GET',
    pattern: /^\/data\/energy\/accounts$/,
    scope: 'data:energy:accounts:read',
    handler: consentData('energyAccounts', 'accounts', '/data/energy/accounts'),
  },
  {
    method: 'GET',
    pattern: /^\/data\/energy\/invoices$/,
    scope: 'data:energy:invoices:read',
    handler: consentData('invoices', 'invoices', '/data/energy/invoices'),
  },
  {
    method: 'GET',
    pattern: /^\/data\/energy\/bills$/,
    scope: 'data:energy:billing:read',
    handler: consentData('bills', 'transactions', '/data/energy/bills'),
  },
  {
    method: 'GET',
    pattern: /^\/data\/energy\/electricity\/servicepoints$/,
    scope: 'data:energy:electricity.servicepoints:read',
    handler: consentData('servicePoints', 'servicePoints', '/data/energy/electricity/servicepoints'),
  },
  {
    method: 'GET',
    pattern: /^\/data\/energy\/electricity\/usage$/,
    scope: 'data:energy:electricity.usage:read',
    handler: consentData('usage', 'reads', '/data/energy/electricity/usage'),
  },
];
