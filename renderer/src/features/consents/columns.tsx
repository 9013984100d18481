import type { ConsentRow, ConsentSortField } from '../../../../shared/ipc/contract.js';
import { CONSENT_COLUMN_LABELS } from '../../../../shared/consents/columns.js';
import { enumText } from '../../ui/format.js';
import { matchedRanges } from '../../../../shared/consents/search.js';
import { Highlighted, useHighlightSearch } from '../../ui/Highlighted.js';
import { StatusBadge } from '../../ui/StatusBadge.js';
import type { Column } from '../../ui/table/WindowedTable.js';
import { Time } from '../../ui/Time.js';
import classes from './columns.module.css';

/** Text cut to its column shows the whole value on hover; the part a search matched is marked. */
function Truncated({ text, mono = false, atStartOnly = false }: { text: string | null; mono?: boolean; atStartOnly?: boolean }) {
  if (!text) return <span aria-label="none">—</span>;
  return (
    <span title={text} className={mono ? classes.mono : undefined}>
      <Highlighted text={text} atStartOnly={atStartOnly} />
    </span>
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
    case 'useCaseName':
      return <Truncated text={row.useCaseName} atStartOnly />;
    default:
      return <Truncated text={row[field]} />;
  }
}

export function consentColumn(field: ConsentSortField): Column<ConsentRow> {
  return { id: field, header: CONSENT_COLUMN_LABELS[field], width: WIDTHS[field], cell: (row) => cellOf(field, row) };
}

/** The fields a search looks in, in the order "Matched in" names them (the use case's name at a word's start only). */
const SEARCHED: readonly (readonly [ConsentSortField & keyof ConsentRow, boolean])[] = [
  ['consumerEmail', false],
  ['consumerMobile', false],
  ['consumerId', false],
  ['externalId', false],
  ['consentId', false],
  ['cdrArrangementId', false],
  ['dataHolderName', false],
  ['useCaseName', true],
];

/** The characters of a value "Matched in" shows whole; a longer one is cut around its match. */
const EXCERPT = 20;

/** Where the search matched a row, when it matched in a column not shown (the mobile, say). */
function MatchedIn({ row, hidden }: { row: ConsentRow; hidden: readonly (readonly [ConsentSortField & keyof ConsentRow, boolean])[] }) {
  const search = useHighlightSearch();
  for (const [field, atStartOnly] of hidden) {
    const value = row[field];
    const text = typeof value === 'string' ? value : '';
    const first = matchedRanges(text, search, { atStartOnly })[0];
    if (!first) continue;
    // A long value (an id) shown around its first match, so the mark is in sight in the column.
    const from = text.length > EXCERPT ? Math.max(0, first[0] - 8) : 0;
    const to = text.length > EXCERPT ? Math.max(first[1] + 8, from + EXCERPT) : text.length;
    const excerpt = `${from > 0 ? '…' : ''}${text.slice(from, to)}${to < text.length ? '…' : ''}`;
    return (
      <span title={`${CONSENT_COLUMN_LABELS[field]}: ${text}`}>
        <span className={classes.matchedIn}>{CONSENT_COLUMN_LABELS[field]}: </span>
        <Highlighted text={excerpt} atStartOnly={atStartOnly} />
      </span>
    );
  }
  return null;
}

/**
 * While a search is typed: a column saying where it matched each row whose match is in a column not
 * shown ("Mobile: +61412345678", the part matched marked), so that no row is a mystery.
 */
export function matchedInColumn(shown: readonly ConsentSortField[]): Column<ConsentRow> {
  const hidden = SEARCHED.filter(([field]) => !shown.includes(field));
  return { id: 'matchedIn', header: 'Matched in', width: 250, sortable: false, cell: (row) => <MatchedIn row={row} hidden={hidden} /> };
}

/** How a row is named to a screen reader: who and where, not just an id. */
export function consentRowLabel(row: ConsentRow): string {
  return `consent of ${row.consumerEmail ?? row.consumerId ?? 'unknown consumer'} at ${row.dataHolderName ?? 'unknown data holder'} (${row.status ?? 'no status'}, ${row.consentId.slice(0, 8)})`;
}
