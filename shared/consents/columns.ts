import type { ConsentRow, ConsentSortField } from '../ipc/contract.js';
import { CONSENT_SORT_FIELDS } from '../ipc/consent-fields.js';

/**
 * The consent list's columns: the label a user reads (table header, CSV header, column chooser),
 * in one place for the renderer, the exports and the command line.
 */
export const CONSENT_COLUMN_LABELS: Record<ConsentSortField, string> = {
  status: 'Status',
  consumerEmail: 'Consumer e-mail',
  dataHolderName: 'Data holder',
  useCaseName: 'Use case',
  created: 'Created',
  sharingEndDate: 'Sharing end date',
  revoked: 'Revoked',
  firstDataCollection: 'First data collection',
  consumerMobile: 'Consumer mobile',
  consumerId: 'Consumer id',
  accessFrequency: 'Access frequency',
  postUsageAction: 'Post-usage action',
  directMarketingAllowed: 'Direct marketing',
  externalId: 'External id',
  cdrArrangementId: 'CDR arrangement id',
  consentId: 'Consent id',
  version: 'Version',
};

/** The columns that hold a time (UTC instants): sorted newest first, and also given in the console's zone in exports. */
export const CONSENT_TIME_COLUMNS: ReadonlySet<ConsentSortField> = new Set(['created', 'sharingEndDate', 'revoked', 'firstDataCollection']);

/** What a new user sees before choosing columns. */
export const DEFAULT_CONSENT_COLUMNS: readonly ConsentSortField[] = [
  'status',
  'consumerEmail',
  'dataHolderName',
  'useCaseName',
  'created',
  'sharingEndDate',
];

/**
 * Every column, in the order a full export or the command line lists them: the id and the status
 * first, then the rest in the list's own order (CONSENT_SORT_FIELDS), so none is ever left out.
 */
const LEADING_COLUMNS = ['consentId', 'status'] as const satisfies readonly ConsentSortField[];
export const ALL_CONSENT_COLUMNS: readonly ConsentSortField[] = [
  ...LEADING_COLUMNS,
  ...CONSENT_SORT_FIELDS.filter((f) => !(LEADING_COLUMNS as readonly string[]).includes(f)),
];

/** A cell's value as text for exports: times as stored (ISO 8601 UTC), booleans as yes/no. */
export function consentCellText(row: ConsentRow, column: ConsentSortField): string {
  const v = row[column];
  if (v === null || v === undefined) return '';
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  return String(v);
}
