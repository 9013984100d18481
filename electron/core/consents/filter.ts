import type { ConsentFilter, ConsentRow, ConsentSortField } from '../../../shared/ipc/contract.js';

/**
 * What the consent list's filter and sorts mean, once for every store (issue 37): SQLite's SQL
 * (cache/consent-query.ts), PostgreSQL's (postgres/consents.ts) and the in-memory index
 * (cache/consent-index.ts) each render these parts in their own terms, and nothing else reads a
 * ConsentFilter's fields. A new filter on a column of the list is one line in `filterParts`: for
 * example `externalIds`, exactly these external ids, is `anyOf('externalId', filter.externalIds)`;
 * the two engines' SQL and the index follow (the storage contract suites hold them to one answer).
 */

/** A field of a consent list row, as the list, its filters and its sorts name it. */
export type ConsentField = keyof ConsentRow;

/** Each field's column in the consents table: the same name in SQLite and PostgreSQL. */
export const CONSENT_COLUMNS: Record<ConsentField, string> = {
  consentId: 'consent_id',
  status: 'status',
  consumerEmail: 'consumer_email',
  consumerMobile: 'consumer_mobile',
  consumerId: 'consumer_id',
  dataHolderName: 'data_holder_name',
  dataHolderBrandId: 'data_holder_brand_id',
  useCaseId: 'use_case_id',
  useCaseName: 'use_case_name',
  accessFrequency: 'access_frequency',
  postUsageAction: 'post_usage_action',
  directMarketingAllowed: 'direct_marketing',
  externalId: 'external_id',
  cdrArrangementId: 'cdr_arrangement_id',
  created: 'created',
  sharingEndDate: 'sharing_end_date',
  revoked: 'revoked',
  firstDataCollection: 'first_data_collection',
  version: 'version',
};

/** A list row's columns, each named as the row's field: `SELECT ${ROW_COLUMNS} FROM consents` (both engines). */
export const ROW_COLUMNS = Object.entries(CONSENT_COLUMNS)
  .map(([field, column]) => (field === column ? column : `${column} AS "${field}"`))
  .join(', ');

/**
 * The sorts that ignore letter case (names, e-mails, external ids: people type them either way); the
 * others compare as stored. Each engine says it its own way (SQLite COLLATE NOCASE, PostgreSQL
 * lower() under COLLATE "C"): both fold ASCII letters only. NULLs sort last in both directions, and
 * the consent id breaks ties.
 */
export const CASELESS_SORTS: ReadonlySet<ConsentSortField> = new Set(['consumerEmail', 'dataHolderName', 'useCaseName', 'externalId']);

/** What a sort orders by, in an engine's SQL: the field's column, through `caseless` for CASELESS_SORTS. */
export function sortKeySql(field: ConsentSortField, caseless: (column: string) => string): string {
  const column = CONSENT_COLUMNS[field];
  return CASELESS_SORTS.has(field) ? caseless(column) : column;
}

/** A time range's bounds as stored (ISO 8601 UTC with milliseconds, so text order is time order). */
export interface StoredRange {
  from?: string;
  to?: string;
}

/** One condition of a filter; a row matches a filter when it meets every part. */
export type FilterPart =
  /** The field's value is one of these (text compared exactly; NULL never matches). */
  | { kind: 'in'; field: ConsentField; values: readonly string[] }
  /** The boolean field is this value (NULL never matches). */
  | { kind: 'is'; field: ConsentField; value: boolean }
  /** The field is set (`true`) or NULL (`false`). */
  | { kind: 'present'; field: ConsentField; value: boolean }
  /** The time field is in [from, to) (NULL never matches). */
  | { kind: 'range'; field: ConsentField; range: StoredRange }
  /** The consent has a failed webhook delivery (shared/consents/webhooks.ts) in [from, to): events, not a column. */
  | { kind: 'webhookFailures'; range: StoredRange }
  /** The consent matches the search (shared/consents/search.ts): each store's own text index. */
  | { kind: 'search'; text: string };

/** The column a part tests, for the parts that test one of the row's fields. */
export const columnOf = (part: Extract<FilterPart, { field: ConsentField }>): string => CONSENT_COLUMNS[part.field];

const stored = (r: { from?: string | undefined; to?: string | undefined }): StoredRange => ({
  ...(r.from ? { from: new Date(r.from).toISOString() } : {}),
  ...(r.to ? { to: new Date(r.to).toISOString() } : {}),
});

/**
 * A filter as its parts, in the order the stores test them; `without: 'statuses'` leaves the status
 * part out (the status facets count every status of the rest of the filter).
 */
export function filterParts(filter: ConsentFilter, without?: 'statuses'): FilterPart[] {
  const parts: FilterPart[] = [];
  const anyOf = (field: ConsentField, values: readonly string[] | undefined) => {
    if (values?.length) parts.push({ kind: 'in', field, values });
  };
  const range = (field: ConsentField, r: { from?: string | undefined; to?: string | undefined } | undefined) => {
    if (r?.from || r?.to) parts.push({ kind: 'range', field, range: stored(r) });
  };
  if (without !== 'statuses') anyOf('status', filter.statuses);
  anyOf('dataHolderBrandId', filter.dataHolderBrandIds);
  anyOf('useCaseId', filter.useCaseIds);
  anyOf('consumerId', filter.consumerIds);
  anyOf('accessFrequency', filter.accessFrequencies);
  anyOf('postUsageAction', filter.postUsageActions);
  if (filter.directMarketing !== undefined) parts.push({ kind: 'is', field: 'directMarketingAllowed', value: filter.directMarketing });
  if (filter.collected !== undefined) parts.push({ kind: 'present', field: 'firstDataCollection', value: filter.collected });
  range('created', filter.created);
  range('sharingEndDate', filter.sharingEnd);
  range('revoked', filter.revoked);
  if (filter.webhookFailures) parts.push({ kind: 'webhookFailures', range: stored(filter.webhookFailures) });
  if (filter.search !== undefined) parts.push({ kind: 'search', text: filter.search });
  return parts;
}
