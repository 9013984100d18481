import type { ConsentRow, ConsentSortField } from '../../../../shared/ipc/contract.js';
import { CONSENT_COLUMN_LABELS } from '../../../../shared/consents/columns.js';
import { enumText } from '../../ui/format.js';
import { StatusBadge } from '../../ui/StatusBadge.js';
import type { Column } from '../../ui/table/WindowedTable.js';
import { Time } from '../../ui/Time.js';
import classes from './columns.module.css';

/** Text cut to its column shows the whole value on hover. */
function Truncated({ text, mono = false }: { text: string | null; mono?: boolean }) {
  if (!text) return <span aria-label="none">—</span>;
  return mono ? (
    <span title={text} className={classes.mono}>
      {text}
    </span>
  ) : (
    <span title={text}>{text}</span>
  );
}

const WIDTHS: Record<ConsentSortField, number> = {
  status: 120,
  consumerEmail: 280,
  dataHolderName: 180,
  useCaseName: 210,
  created: 160,
  sharingEndDate: 140,
  revoked: 160,
  firstDataCollection: 170,
  consumerMobile: 140,
  consumerId: 260,
  accessFrequency: 130,
  postUsageAction: 150,
  directMarketingAllowed: 130,
  externalId: 150,
  cdrArrangementId: 300,
  consentId: 300,
  version: 80,
};

function cellOf(field: ConsentSortField, row: ConsentRow) {
  switch (field) {
    case 'status':
      return <StatusBadge status={row.status} />;
    case 'created':
    case 'revoked':
    case 'firstDataCollection':
      return <Time iso={row[field]} />;
    case 'sharingEndDate':
      return <Time iso={row.sharingEndDate} dateOnly />;
    case 'accessFrequency':
    case 'postUsageAction':
      return enumText(row[field]);
    case 'directMarketingAllowed':
      return row.directMarketingAllowed === null ? (
        <span aria-label="none">—</span>
      ) : row.directMarketingAllowed ? (
        'Allowed'
      ) : (
        'Not allowed'
      );
    case 'consentId':
    case 'cdrArrangementId':
    case 'consumerId':
      return <Truncated text={row[field]} mono />;
    case 'version':
      return row.version ?? '—';
    default:
      return <Truncated text={row[field]} />;
  }
}

export function consentColumn(field: ConsentSortField): Column<ConsentRow> {
  return { id: field, header: CONSENT_COLUMN_LABELS[field], width: WIDTHS[field], cell: (row) => cellOf(field, row) };
}

/** How a row is named to a screen reader: who and where, not just an id. */
export function consentRowLabel(row: ConsentRow): string {
  return `consent of ${row.consumerEmail ?? row.consumerId ?? 'unknown consumer'} at ${row.dataHolderName ?? 'unknown data holder'} (${row.status ?? 'no status'}, ${row.consentId.slice(0, 8)})`;
}
