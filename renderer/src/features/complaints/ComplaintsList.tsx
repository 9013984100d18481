import { Anchor, Badge, Button, Stack } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { CATEGORY_TEXT, CHANNEL_TEXT, OUTCOME_TEXT, complaintReference } from '../../../../shared/complaints/complaints.js';
import type { Complaint, ComplaintFilter } from '../../../../shared/ipc/contract.js';
import { visibleText } from '../../../../shared/text/visible.js';
import { useClient } from '../../bridge/ClientContext.js';
import { dayText } from '../../ui/days.js';
import { formatCount, localZone, plural } from '../../ui/format.js';
import { ListHeader, rangeLine } from '../../ui/ListHeader.js';
import { EmptyState, ErrorState } from '../../ui/states.js';
import { usePagedList } from '../../ui/table/useWindowedList.js';
import { WindowedTable, type Column } from '../../ui/table/WindowedTable.js';
import { useCan } from '../status/can.js';
import { ComplaintDialog, type ComplaintDraft } from './ComplaintDialog.js';
import { COMPLAINTS_KEY } from './queries.js';

const none = <span aria-label="none">—</span>;

const COLUMNS: Column<Complaint>[] = [
  { id: 'number', header: 'Reference', width: 100, cell: (c) => complaintReference(c.number) },
  { id: 'received', header: 'Received', width: 120, cell: (c) => dayText(c.receivedOn) },
  { id: 'category', header: 'Category', width: 250, cell: (c) => CATEGORY_TEXT[c.category] },
  { id: 'channel', header: 'Channel', width: 150, cell: (c) => CHANNEL_TEXT[c.channel] },
  {
    id: 'status',
    header: 'Status',
    width: 190,
    cell: (c) =>
      c.outcome ? (
        <Badge variant="light" color="gray" size="sm">
          Resolved · {OUTCOME_TEXT[c.outcome]}
        </Badge>
      ) : (
        <Badge variant="light" color="orange" size="sm">
          Open
        </Badge>
      ),
  },
  { id: 'resolved', header: 'Resolved', width: 120, cell: (c) => (c.resolvedOn ? dayText(c.resolvedOn) : none) },
  { id: 'referred', header: 'Referred to', width: 130, cell: (c) => (c.referredTo ? visibleText(c.referredTo) : none) },
  {
    id: 'consent',
    header: 'Consent',
    width: 290,
    cell: (c) =>
      c.consentId ? (
        <Anchor component={Link} to={`/consents/${encodeURIComponent(c.consentId)}?tab=complaints`} size="xs" ff="monospace">
          {c.consentId}
        </Anchor>
      ) : (
        none
      ),
  },
  {
    id: 'consumer',
    header: 'Consumer',
    width: 200,
    cell: (c) =>
      c.consumerId ? (
        <Anchor component={Link} to={`/complaints?consumerId=${encodeURIComponent(c.consumerId)}`} size="xs" ff="monospace">
          {visibleText(c.consumerId)}
        </Anchor>
      ) : (
        none
      ),
  },
  {
    id: 'description',
    header: 'What it is about',
    width: 420,
    cell: (c) => <span title={visibleText(c.description)}>{visibleText(c.description)}</span>,
  },
];

/**
 * The register's complaints the filter keeps, newest received first: open one to change it, record
 * one (the consent or the consumer of `about` filled in), export them. The Complaints screen shows
 * the whole register; a consent's detail and a customer's page show theirs.
 */
export function ComplaintsList({
  filter,
  about,
  title,
  filters,
}: {
  filter: ComplaintFilter;
  about: { consentId?: string | null; consumerId?: string | null };
  title?: string;
  filters?: React.ReactNode;
}) {
  const client = useClient();
  const canRecord = useCan('complaints:record');
  const [draft, setDraft] = useState<ComplaintDraft | null>(null);
  const { head, total, table } = usePagedList({
    key: [COMPLAINTS_KEY, filter],
    read: (offset, limit) => client.complaintsList({ ...filter, offset, limit }),
    cursorKey: filter,
  });
  const record = (
    <Button
      size="xs"
      onClick={() => setDraft({ about })}
      disabled={!canRecord.allowed}
      title={canRecord.reason ?? undefined}
      aria-description={canRecord.reason ?? undefined}
    >
      Record a complaint
    </Button>
  );
  return (
    <Stack h="100%" gap="xs" mih={title ? undefined : 320}>
      <ListHeader
        {...(title ? { title } : {})}
        range={rangeLine(head, () => `${plural(total, 'complaint', 'complaints')} ${total === 1 ? 'matches' : 'match'} this view`)}
        rangeId="complaints-range"
        reading="Reading the register…"
        actions={record}
        exportMenu={{
          channel: 'complaints:export',
          label: `Export all ${formatCount(total)} complaints of this view`,
          start: (format) => client.complaintsExport({ ...filter, format, timeZone: localZone() }),
        }}
      />
      {filters}
      {head.error ? <ErrorState title="The complaints register could not be read" error={head.error} /> : null}
      <WindowedTable<Complaint>
        label="Complaints"
        {...table}
        columns={COLUMNS}
        rowId={(c) => c.id}
        rowLabel={(c) => `${complaintReference(c.number)}: ${CATEGORY_TEXT[c.category]}, ${c.status}`}
        rowTone={(c) => (c.status === 'open' ? 'warning' : undefined)}
        onOpen={(c) => setDraft({ editing: c })}
        empty={
          head.data ? (
            <EmptyState title="No complaint matches this view">
              Complaints consumers make about their data or consents are recorded here (CDR rule 9.3), and counted in the rule 9.4 report.
            </EmptyState>
          ) : null
        }
      />
      <ComplaintDialog draft={draft} onClose={() => setDraft(null)} />
    </Stack>
  );
}
