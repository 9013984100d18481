import type { DataView, ProductFilter, TransactionFilter } from '../../../shared/ipc/contract.js';
import type { DataStore } from '../data/port.js';
import type { JobContext } from '../jobs/jobs.js';
import { streamed } from './log-exports.js';

/**
 * Exports of the data browser's views: every record of the view (the filter applied), streamed a
 * window at a time. CSV gets the columns an analyst reads for that kind, then the whole normalised
 * record as JSON in the last column, so nothing is lost; JSON gets the record, the payload as sent
 * and the normaliser's notes.
 */
const FIELDS: Record<DataView, string[]> = {
  customers: ['customerUType', 'person.firstName', 'person.lastName', 'organisation.businessName'],
  accounts: ['accountId', 'displayName', 'nickname', 'maskedNumber', 'productCategory', 'productName', 'openStatus'],
  balances: ['accountId', 'currentBalance', 'availableBalance', 'creditLimit', 'amortisedLimit', 'currency'],
  transactions: [
    'accountId',
    'transactionId',
    'status',
    'type',
    'description',
    'executionDateTime',
    'postingDateTime',
    'amount',
    'currency',
    'merchantName',
  ],
  payees: ['payeeId', 'nickname', 'type', 'description', 'creationDate'],
  directDebits: ['accountId', 'authorisedEntity.description', 'lastDebitDateTime', 'lastDebitAmount'],
  scheduledPayments: ['scheduledPaymentId', 'nickname', 'status', 'recurrence.nextPaymentDate', 'recurrence.recurrenceUType'],
  energyAccounts: ['accountId', 'displayName', 'openStatus', 'creationDate'],
  servicePoints: ['servicePointId', 'nationalMeteringId', 'servicePointStatus', 'jurisdictionCode'],
  invoices: ['accountId', 'invoiceNumber', 'issueDate', 'dueDate', 'invoiceAmount', 'paymentStatus'],
  bills: ['accountId', 'executionDateTime', 'transactionUType'],
  usage: ['servicePointId', 'registerSuffix', 'readStartDate', 'readEndDate', 'unitOfMeasure', 'basicRead.value'],
};

export function fieldAt(record: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), record);
}
const cell = (v: unknown) => (v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));

export async function writeDataExport(
  query: DataStore,
  input: { consentId: string; kind: DataView; filter?: TransactionFilter | undefined },
  format: 'csv' | 'json',
  path: string,
  ctx: JobContext,
) {
  const total = (await query.records({ ...input, offset: 0, limit: 1 })).total;
  ctx.progress({ total, done: 0 });
  const fields = FIELDS[input.kind];
  const running = input.kind === 'transactions';
  return streamed(
    path,
    format,
    ['recordId', 'fetchedAt (UTC)', 'stale', ...fields, ...(running ? ['runningBalance'] : []), 'record (JSON, Data API 2.0.0 form)'],
    query.windows(input),
    (r) => [
      r.recordId,
      r.fetchedAt,
      r.stale ? 'yes' : 'no',
      ...fields.map((f) => cell(fieldAt(r.record, f))),
      ...(running ? [r.runningBalance ?? ''] : []),
      JSON.stringify(r.record),
    ],
    (r) => r,
    {
      signal: ctx.signal,
      onRows: (done) => ctx.progress({ done }),
      trailer: { consentId: input.consentId, kind: input.kind, filter: input.filter ?? {} },
    },
  );
}

export async function writeProductsExport(query: DataStore, filter: ProductFilter, format: 'csv' | 'json', path: string, ctx: JobContext) {
  const total = (await query.products(filter, 0, 1)).total;
  ctx.progress({ total, done: 0 });
  return streamed(
    path,
    format,
    ['recordId', 'productId', 'name', 'brandName', 'dataHolderBrandId', 'category', 'sourceShape', 'fetchedAt (UTC)', 'versions seen'],
    query.productWindows(filter),
    (p) => [
      p.recordId,
      p.productId,
      p.name ?? '',
      p.brandName ?? '',
      p.dataHolderBrandId ?? '',
      p.category ?? '',
      p.shape ?? '',
      p.fetchedAt,
      String(p.versions),
    ],
    async (p) => ({ ...p, product: (await query.product(p.recordId))?.record }),
    { signal: ctx.signal, onRows: (done) => ctx.progress({ done }), trailer: { filter } },
  );
}
