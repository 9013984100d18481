import { Badge, Text } from '@mantine/core';
import type { DataRecordRow, DataView } from '../../../../shared/ipc/contract.js';
import { enumText } from '../../ui/format.js';
import type { Column } from '../../ui/table/WindowedTable.js';
import { Time } from '../../ui/Time.js';
import { money } from '../products/terms-text.js';
import { dayText, recurrenceText } from './recurrence.js';
import { unitText } from '../../ui/glossary.js';

/** The data browser's views, their names and their columns. */
type Json = Record<string, unknown>;
const at = (r: DataRecordRow, path: string): unknown =>
  path.split('.').reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Json)[k] : undefined), r.record);
const text = (v: unknown) => (v === undefined || v === null || v === '' ? '—' : String(v));

export const VIEW_LABEL: Record<DataView, string> = {
  customers: 'Customer',
  accounts: 'Accounts',
  balances: 'Balances',
  transactions: 'Transactions',
  payees: 'Payees',
  directDebits: 'Direct debits',
  scheduledPayments: 'Scheduled payments',
  energyAccounts: 'Energy accounts',
  servicePoints: 'Service points',
  invoices: 'Invoices',
  bills: 'Bills',
  usage: 'Usage',
};

const fetched: Column<DataRecordRow> = {
  id: 'fetchedAt',
  header: 'Fetched',
  width: 190,
  cell: (r) => (
    <>
      <Time iso={r.fetchedAt} />
      {r.stale ? (
        <Badge
          size="xs"
          color="orange"
          variant="light"
          ml={4}
          title="Fetched by an earlier sync: the consent’s last sync did not return it"
        >
          stale
        </Badge>
      ) : null}
    </>
  ),
};
const amount =
  (path: string, currencyPath = 'currency'): Column<DataRecordRow>['cell'] =>
  (r) => (
    <Text span size="sm" ff="monospace">
      {money(at(r, path), at(r, currencyPath))}
    </Text>
  );

export const VIEW_COLUMNS: Record<DataView, Column<DataRecordRow>[]> = {
  customers: [
    { id: 'type', header: 'Type', width: 120, cell: (r) => enumText(text(at(r, 'customerUType'))) },
    {
      id: 'name',
      header: 'Name',
      width: 280,
      cell: (r) =>
        text([at(r, 'person.firstName'), at(r, 'person.lastName')].filter(Boolean).join(' ') || at(r, 'organisation.businessName')),
    },
    { id: 'occupation', header: 'Occupation code', width: 150, cell: (r) => text(at(r, 'person.occupationCode')) },
    fetched,
  ],
  accounts: [
    { id: 'displayName', header: 'Account', width: 220, cell: (r) => text(at(r, 'nickname') ?? at(r, 'displayName')) },
    { id: 'maskedNumber', header: 'Number', width: 130, cell: (r) => text(at(r, 'maskedNumber')) },
    { id: 'productCategory', header: 'Category', width: 220, cell: (r) => enumText(text(at(r, 'productCategory'))) },
    { id: 'productName', header: 'Product', width: 180, cell: (r) => text(at(r, 'productName')) },
    {
      id: 'fees',
      header: 'Terms',
      width: 150,
      cell: (r) =>
        `${(at(r, 'fees') as unknown[] | undefined)?.length ?? 0} fees, ${((at(r, 'depositRates') as unknown[] | undefined)?.length ?? 0) + ((at(r, 'lendingRates') as unknown[] | undefined)?.length ?? 0)} rates`,
    },
    fetched,
  ],
  balances: [
    { id: 'accountId', header: 'Account id', width: 300, cell: (r) => text(at(r, 'accountId')) },
    { id: 'current', header: 'Current', width: 130, cell: amount('currentBalance') },
    { id: 'available', header: 'Available', width: 130, cell: amount('availableBalance') },
    {
      id: 'limit',
      header: 'Limit',
      width: 130,
      cell: (r) =>
        at(r, 'creditLimit')
          ? money(at(r, 'creditLimit'))
          : at(r, 'amortisedLimit')
            ? `${money(at(r, 'amortisedLimit'))} (amortised)`
            : '—',
    },
    {
      id: 'purses',
      header: 'Purses',
      width: 200,
      cell: (r) => ((at(r, 'purses') as Json[] | undefined) ?? []).map((p) => money(p.amount, p.currency)).join(', ') || '—',
    },
    fetched,
  ],
  transactions: [
    {
      id: 'at',
      header: 'Posted / executed',
      width: 170,
      cell: (r) => <Time iso={(at(r, 'postingDateTime') ?? at(r, 'executionDateTime')) as string} />,
    },
    { id: 'description', header: 'Description', width: 300, cell: (r) => text(at(r, 'description')) },
    { id: 'amount', header: 'Amount', width: 120, cell: amount('amount') },
    {
      id: 'running',
      header: 'Balance after',
      width: 130,
      cell: (r) =>
        r.runningBalance ? (
          <Text span size="sm" ff="monospace">
            {money(r.runningBalance)}
          </Text>
        ) : (
          <span title="No running balance: the transaction is pending, or the account’s balance is not cached">—</span>
        ),
    },
    { id: 'type', header: 'Type', width: 160, cell: (r) => enumText(text(at(r, 'type'))) },
    {
      id: 'status',
      header: 'Status',
      width: 100,
      cell: (r) => (
        <Badge size="xs" variant="light" color={at(r, 'status') === 'PENDING' ? 'yellow' : 'gray'}>
          {text(at(r, 'status'))}
        </Badge>
      ),
    },
    fetched,
  ],
  payees: [
    { id: 'nickname', header: 'Payee', width: 200, cell: (r) => text(at(r, 'nickname')) },
    { id: 'type', header: 'Type', width: 160, cell: (r) => enumText(text(at(r, 'type'))) },
    { id: 'description', header: 'Description', width: 240, cell: (r) => text(at(r, 'description')) },
    { id: 'creationDate', header: 'Created', width: 130, cell: (r) => dayText(at(r, 'creationDate')) ?? '—' },
    fetched,
  ],
  directDebits: [
    { id: 'entity', header: 'Authorised entity', width: 240, cell: (r) => text(at(r, 'authorisedEntity.description')) },
    { id: 'institution', header: 'Financial institution', width: 240, cell: (r) => text(at(r, 'authorisedEntity.financialInstitution')) },
    { id: 'lastDebit', header: 'Last debit', width: 170, cell: (r) => <Time iso={at(r, 'lastDebitDateTime') as string} /> },
    { id: 'lastAmount', header: 'Amount', width: 120, cell: amount('lastDebitAmount') },
    fetched,
  ],
  scheduledPayments: [
    { id: 'nickname', header: 'Payment', width: 180, cell: (r) => text(at(r, 'nickname')) },
    { id: 'status', header: 'Status', width: 100, cell: (r) => enumText(text(at(r, 'status'))) },
    {
      id: 'amount',
      header: 'Amount',
      width: 120,
      cell: (r) => ((at(r, 'paymentSet') as Json[] | undefined) ?? []).map((p) => money(p.amount, p.currency)).join(' + ') || '—',
    },
    {
      id: 'recurrence',
      header: 'When',
      width: 360,
      cell: (r) => <span data-testid="recurrence">{recurrenceText(at(r, 'recurrence'))}</span>,
    },
    fetched,
  ],
  energyAccounts: [
    { id: 'displayName', header: 'Account', width: 200, cell: (r) => text(at(r, 'displayName')) },
    { id: 'openStatus', header: 'Status', width: 100, cell: (r) => enumText(text(at(r, 'openStatus'))) },
    {
      id: 'plans',
      header: 'Plans',
      width: 320,
      cell: (r) =>
        ((at(r, 'plans') as Json[] | undefined) ?? [])
          .map(
            (p) =>
              `${text((p.planOverview as Json | undefined)?.displayName ?? p.nickname)} (${((p.servicePointIds as unknown[]) ?? []).length} service points)`,
          )
          .join('; ') || '—',
    },
    { id: 'creationDate', header: 'Opened', width: 130, cell: (r) => dayText(at(r, 'creationDate')) ?? '—' },
    fetched,
  ],
  servicePoints: [
    { id: 'nmi', header: 'NMI', width: 150, cell: (r) => text(at(r, 'nationalMeteringId')) },
    { id: 'status', header: 'Status', width: 100, cell: (r) => enumText(text(at(r, 'servicePointStatus'))) },
    { id: 'classification', header: 'Classification', width: 140, cell: (r) => enumText(text(at(r, 'servicePointClassification'))) },
    { id: 'jurisdiction', header: 'Jurisdiction', width: 110, cell: (r) => text(at(r, 'jurisdictionCode')) },
    { id: 'generator', header: 'Generator', width: 100, cell: (r) => (at(r, 'isGenerator') ? 'yes' : 'no') },
    fetched,
  ],
  invoices: [
    { id: 'invoiceNumber', header: 'Invoice', width: 150, cell: (r) => text(at(r, 'invoiceNumber')) },
    { id: 'issueDate', header: 'Issued', width: 120, cell: (r) => dayText(at(r, 'issueDate')) ?? '—' },
    {
      id: 'period',
      header: 'Period',
      width: 220,
      cell: (r) => `${dayText(at(r, 'period.startDate')) ?? '?'} – ${dayText(at(r, 'period.endDate')) ?? '?'}`,
    },
    { id: 'amount', header: 'Amount', width: 120, cell: amount('invoiceAmount') },
    { id: 'dueDate', header: 'Due', width: 120, cell: (r) => dayText(at(r, 'dueDate')) ?? '—' },
    { id: 'paymentStatus', header: 'Payment', width: 110, cell: (r) => enumText(text(at(r, 'paymentStatus'))) },
    fetched,
  ],
  bills: [
    { id: 'at', header: 'When', width: 170, cell: (r) => <Time iso={at(r, 'executionDateTime') as string} /> },
    { id: 'type', header: 'Type', width: 110, cell: (r) => enumText(text(at(r, 'transactionUType'))) },
    {
      id: 'detail',
      header: 'Detail',
      width: 320,
      cell: (r) => {
        const t = text(at(r, 'transactionUType'));
        const body = at(r, t) as Json | undefined;
        if (t === 'usage' && body)
          return `${text(body.usage)} ${text(body.measureUnit)} ${dayText(body.startDate) ?? ''} – ${dayText(body.endDate) ?? ''}`;
        if (t === 'payment' && body) return enumText(text(body.method));
        return '—';
      },
    },
    { id: 'amount', header: 'Amount', width: 120, cell: (r) => money(at(r, `${text(at(r, 'transactionUType'))}.amount`)) },
    fetched,
  ],
  usage: [
    { id: 'servicePointId', header: 'Service point', width: 150, cell: (r) => text(at(r, 'servicePointId')) },
    {
      id: 'read',
      header: 'Read',
      width: 220,
      cell: (r) => `${dayText(at(r, 'readStartDate')) ?? '?'} – ${dayText(at(r, 'readEndDate')) ?? '?'}`,
    },
    {
      id: 'value',
      header: 'Value',
      width: 120,
      cell: (r) =>
        `${text(at(r, 'basicRead.value'))} ${unitText(typeof at(r, 'unitOfMeasure') === 'string' ? (at(r, 'unitOfMeasure') as string) : null) || '—'}`,
    },
    { id: 'quality', header: 'Quality', width: 110, cell: (r) => enumText(text(at(r, 'basicRead.quality'))) },
    fetched,
  ],
};

export function rowLabel(kind: DataView, r: DataRecordRow): string {
  const s = (p: string) => {
    const v = at(r, p);
    return typeof v === 'string' || typeof v === 'number' ? String(v) : '';
  };
  switch (kind) {
    case 'transactions':
      return `${s('description')} ${s('amount')}`;
    case 'accounts':
    case 'energyAccounts':
      return s('displayName') || r.recordId;
    case 'payees':
    case 'scheduledPayments':
      return s('nickname') || r.recordId;
    default:
      return `${VIEW_LABEL[kind]} ${r.recordId}`;
  }
}

export { at as fieldOf };
