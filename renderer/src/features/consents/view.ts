import { addDays, format } from 'date-fns';
import { inZone } from '../../../../shared/time/zone.js';
import { CONSENT_TIME_COLUMNS } from '../../../../shared/consents/columns.js';
import { CONSENT_SORT_FIELDS } from '../../../../shared/ipc/consent-fields.js';
import type { ConsentFilter, ConsentSort, ConsentSortField, SavedView, TimeRange } from '../../../../shared/ipc/contract.js';
import { instantsOfDays, isDay, isPeriodPreset, presetDays, type PeriodPreset } from '../../../../shared/time/periods.js';

/**
 * The consent list's view — search, filters, sort and columns — lives in the URL (the hash
 * route's query), so a link, a reload or the back button brings the same view back. Dates are
 * written as the user picked them (local calendar days, both ends inclusive) and become UTC
 * instants only in the filter sent to main.
 */
export interface DayRange {
  /** yyyy-MM-dd, local. */
  from?: string;
  to?: string;
}

export interface ConsentView {
  search: string;
  statuses: string[];
  dataHolderBrandIds: string[];
  useCaseIds: string[];
  accessFrequencies: string[];
  postUsageActions: string[];
  directMarketing: boolean | undefined;
  /** Whether data was ever collected (false: never collected). */
  collected: boolean | undefined;
  created: DayRange;
  sharingEnd: DayRange;
  revoked: DayRange;
  /**
   * Consents with failed webhook deliveries: '' not filtered, 'any' at any time, a named period
   * (periods.ts: 'yesterday'…, worked out when the list is read), or chosen days 'yyyy-MM-dd..yyyy-MM-dd'
   * ('..' while none are picked yet: not filtered).
   */
  webhookFailures: WebhookFailuresPeriod;
  sort: ConsentSort;
  /** Null: the user's default columns (settings). */
  columns: ConsentSortField[] | null;
}

export type WebhookFailuresPeriod = '' | 'any' | PeriodPreset | `${string}..${string}`;

/** The URL's `failed` value as a period (anything else: not filtered). */
function failuresPeriod(v: string | null): WebhookFailuresPeriod {
  if (!v) return '';
  if (v === 'any' || isPeriodPreset(v)) return v;
  // Days to be picked ('..', none yet) stay chosen: the calendar stays on screen, the list unfiltered.
  const r = dayRange(v);
  return v.includes('..') ? `${r.from ?? ''}..${r.to ?? ''}` : '';
}

/** The instants of a webhook-failures period (undefined: not filtered; `{}`: at any time). */
export function failuresRange(period: WebhookFailuresPeriod, now: Date = new Date()): TimeRange | undefined {
  if (period === '') return undefined;
  if (period === 'any') return {};
  if (isPeriodPreset(period)) {
    const [from, to] = presetDays(period, now);
    return toTimeRange({ from, to });
  }
  return toTimeRange(dayRange(period));
}

export const DEFAULT_SORT: ConsentSort = { field: 'created', direction: 'desc' };

const list = (v: string | null) =>
  v
    ? v
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean)
    : [];

function dayRange(v: string | null): DayRange {
  const [from, to] = (v ?? '').split('..');
  return { ...(from && isDay(from) ? { from } : {}), ...(to && isDay(to) ? { to } : {}) };
}

export function viewFromParams(p: URLSearchParams): ConsentView {
  const [field, direction] = (p.get('sort') ?? '').split('.');
  const sort: ConsentSort =
    (CONSENT_SORT_FIELDS as readonly string[]).includes(field ?? '') && (direction === 'asc' || direction === 'desc')
      ? { field: field as ConsentSortField, direction }
      : DEFAULT_SORT;
  const columns = list(p.get('cols')).filter((c): c is ConsentSortField => (CONSENT_SORT_FIELDS as readonly string[]).includes(c));
  const dm = p.get('dm');
  const collected = p.get('collected');
  return {
    search: p.get('q') ?? '',
    statuses: list(p.get('status')),
    dataHolderBrandIds: list(p.get('holder')),
    useCaseIds: list(p.get('useCase')),
    accessFrequencies: list(p.get('frequency')),
    postUsageActions: list(p.get('postUsage')),
    directMarketing: dm === 'yes' ? true : dm === 'no' ? false : undefined,
    collected: collected === 'yes' ? true : collected === 'no' ? false : undefined,
    created: dayRange(p.get('created')),
    sharingEnd: dayRange(p.get('sharingEnd')),
    revoked: dayRange(p.get('revoked')),
    webhookFailures: failuresPeriod(p.get('failed')),
    sort,
    columns: columns.length ? columns : null,
  };
}

export function paramsFromView(v: ConsentView): URLSearchParams {
  const p = new URLSearchParams();
  const set = (k: string, value: string) => value && p.set(k, value);
  set('q', v.search);
  set('status', v.statuses.join(','));
  set('holder', v.dataHolderBrandIds.join(','));
  set('useCase', v.useCaseIds.join(','));
  set('frequency', v.accessFrequencies.join(','));
  set('postUsage', v.postUsageActions.join(','));
  if (v.directMarketing !== undefined) p.set('dm', v.directMarketing ? 'yes' : 'no');
  if (v.collected !== undefined) p.set('collected', v.collected ? 'yes' : 'no');
  for (const k of ['created', 'sharingEnd', 'revoked'] as const) {
    const r = v[k];
    if (r.from || r.to) p.set(k, `${r.from ?? ''}..${r.to ?? ''}`);
  }
  set('failed', v.webhookFailures);
  if (v.sort.field !== DEFAULT_SORT.field || v.sort.direction !== DEFAULT_SORT.direction)
    p.set('sort', `${v.sort.field}.${v.sort.direction}`);
  if (v.columns) p.set('cols', v.columns.join(','));
  return p;
}

/** Local calendar days → the UTC instants main filters by: [from 00:00, day after `to` 00:00). */
export function toTimeRange(r: DayRange): TimeRange | undefined {
  if (!r.from && !r.to) return undefined;
  return instantsOfDays(r.from, r.to);
}

export function filterOf(v: ConsentView): ConsentFilter {
  const created = toTimeRange(v.created);
  const sharingEnd = toTimeRange(v.sharingEnd);
  const revoked = toTimeRange(v.revoked);
  const webhookFailures = failuresRange(v.webhookFailures);
  return {
    ...(v.search.trim() ? { search: v.search.trim() } : {}),
    ...(v.statuses.length ? { statuses: v.statuses } : {}),
    ...(v.dataHolderBrandIds.length ? { dataHolderBrandIds: v.dataHolderBrandIds } : {}),
    ...(v.useCaseIds.length ? { useCaseIds: v.useCaseIds } : {}),
    ...(v.accessFrequencies.length ? { accessFrequencies: v.accessFrequencies } : {}),
    ...(v.postUsageActions.length ? { postUsageActions: v.postUsageActions } : {}),
    ...(v.directMarketing !== undefined ? { directMarketing: v.directMarketing } : {}),
    ...(v.collected !== undefined ? { collected: v.collected } : {}),
    ...(created ? { created } : {}),
    ...(sharingEnd ? { sharingEnd } : {}),
    ...(revoked ? { revoked } : {}),
    ...(webhookFailures ? { webhookFailures } : {}),
  };
}

/** A link to the consent list showing this view (the parts not given are the defaults). */
export function consentsLink(view: Partial<ConsentView>): string {
  const params = paramsFromView({ ...viewFromParams(new URLSearchParams()), ...view }).toString();
  return `/consents${params ? `?${params}` : ''}`;
}

/** A saved view's webhook-failures period: at any time, or its days. */
function savedFailures(days: (r: TimeRange | undefined) => DayRange, r: TimeRange | undefined): WebhookFailuresPeriod {
  if (!r) return '';
  const d = days(r);
  return d.from || d.to ? `${d.from ?? ''}..${d.to ?? ''}` : 'any';
}

/** A saved view's filter back into the URL's terms (instants → local days). */
export function viewFromSaved(saved: SavedView): ConsentView {
  const days = (r: TimeRange | undefined): DayRange => ({
    ...(r?.from ? { from: format(new Date(r.from), 'yyyy-MM-dd', inZone()) } : {}),
    ...(r?.to ? { to: format(addDays(new Date(r.to), -1, inZone()), 'yyyy-MM-dd', inZone()) } : {}),
  });
  const f = saved.filter;
  return {
    search: f.search ?? '',
    statuses: f.statuses ?? [],
    dataHolderBrandIds: f.dataHolderBrandIds ?? [],
    useCaseIds: f.useCaseIds ?? [],
    accessFrequencies: f.accessFrequencies ?? [],
    postUsageActions: f.postUsageActions ?? [],
    directMarketing: f.directMarketing,
    collected: f.collected,
    created: days(f.created),
    sharingEnd: days(f.sharingEnd),
    revoked: days(f.revoked),
    webhookFailures: savedFailures(days, f.webhookFailures),
    sort: saved.sort,
    columns: saved.columns,
  };
}

/** How many filters (besides search) are set: the "Filters (3)" badge. */
export function activeFilterCount(v: ConsentView): number {
  return [
    v.dataHolderBrandIds.length,
    v.useCaseIds.length,
    v.accessFrequencies.length,
    v.postUsageActions.length,
    v.directMarketing !== undefined,
    v.collected !== undefined,
    v.created.from || v.created.to,
    v.sharingEnd.from || v.sharingEnd.to,
    v.revoked.from || v.revoked.to,
    failuresRange(v.webhookFailures) !== undefined,
  ].filter(Boolean).length;
}

/** Clicking the sorted column flips it; another column starts newest first for dates, A→Z otherwise. */
export function nextSort(current: ConsentSort, field: ConsentSortField): ConsentSort {
  if (current.field === field) return { field, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { field, direction: CONSENT_TIME_COLUMNS.has(field) ? 'desc' : 'asc' };
}
