import { Alert, Anchor, Badge, List, Select, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import type { AuditFilter, ChannelOutput } from '../../../../shared/ipc/contract.js';
import { visibleText } from '../../../../shared/text/visible.js';
import { useClient } from '../../bridge/ClientContext.js';
import { DayRangeInput } from '../../ui/DayRangeInput.js';
import { daysOfPeriod, periodOfDays } from '../../ui/days.js';
import { useDebouncedText } from '../../ui/fields.js';
import { FilterRow } from '../../ui/FilterRow.js';
import { formatCount, localZone, plural } from '../../ui/format.js';
import { ListHeader, rangeLine } from '../../ui/ListHeader.js';
import { EmptyState, ErrorState } from '../../ui/states.js';
import { usePagedList } from '../../ui/table/useWindowedList.js';
import { WindowedTable, type Column } from '../../ui/table/WindowedTable.js';
import { useAppStatus } from '../status/app-status.js';
import { useCan } from '../status/can.js';
import { Time } from '../../ui/Time.js';
import { useQueryParams } from '../../ui/url.js';
import { clientText } from '../../ui/client-text.js';
import { auditActionText, roleText, signInText } from '../../ui/glossary.js';

/**
 * The staff action log: who did what to which consent, why, with what result — newest first,
 * filtered by operator, action, target and time, with the hash chain's verification at the top
 * (the entry where it breaks, if it does) and an export that is itself audited.
 */
/** An entry of the log, as the audit:query channel gives it. */
type Row = ChannelOutput<'audit:query'>['rows'][number];

const COLUMNS: Column<Row>[] = [
  { id: 'seq', header: '#', width: 70, cell: (r) => r.seq },
  { id: 'at', header: 'Time', width: 180, cell: (r) => <Time iso={r.at} seconds /> },
  { id: 'operator', header: 'Operator', width: 220, cell: (r) => <span title={r.operator}>{visibleText(r.operator)}</span> },
  {
    id: 'action',
    header: 'Action',
    width: 170,
    cell: (r) => (
      <Badge variant="light" size="sm" color={r.result.startsWith('failed') ? 'red' : 'indigo'} title={r.action}>
        {auditActionText(r.action)}
      </Badge>
    ),
  },
  {
    id: 'target',
    header: 'Target',
    width: 290,
    cell: (r) =>
      r.target ? (
        <Anchor component={Link} to={`/consents/${encodeURIComponent(r.target)}?tab=timeline`} size="xs" ff="monospace">
          {r.target}
        </Anchor>
      ) : (
        <span aria-label="none">—</span>
      ),
  },
  {
    id: 'reason',
    header: 'Reason',
    width: 240,
    cell: (r) => (r.reason ? <span title={visibleText(r.reason)}>{visibleText(r.reason)}</span> : '—'),
  },
  { id: 'result', header: 'Result', width: 420, cell: (r) => <span title={visibleText(r.result)}>{visibleText(r.result)}</span> },
];

/** A team server's entries say which client sent each request (address and browser), beside who. */
const CLIENT: Column<Row> = {
  id: 'client',
  header: 'Client',
  width: 260,
  cell: (r) =>
    r.client ? <span title={visibleText(r.client)}>{visibleText(clientText(r.client))}</span> : <span aria-label="none">—</span>,
};
/** The role the person had when they acted, and how they had signed in. */
const SIGNED_IN: Column<Row> = {
  id: 'person',
  header: 'Role',
  width: 170,
  cell: (r) =>
    r.person ? (
      <span title={`User id ${r.person.userId}`}>
        {roleText(r.person.role)} · {signInText(r.person.method)}
      </span>
    ) : (
      <span aria-label="none">—</span>
    ),
};
const TEAM_COLUMNS = [...COLUMNS.slice(0, 3), SIGNED_IN, CLIENT, ...COLUMNS.slice(3)];

export function AuditScreen() {
  const client = useClient();
  const navigate = useNavigate();
  const [params, update] = useQueryParams();
  const filter: AuditFilter = Object.fromEntries(
    (['operator', 'action', 'target', 'from', 'to'] as const).flatMap((k) => (params.get(k) ? [[k, params.get(k)!]] : [])),
  );
  // Checking the chain is compliance's (and an admin's): the others are told so where its result would be.
  const canVerify = useCan('audit:verify');
  const verify = useQuery({
    queryKey: ['audit:verify'],
    queryFn: () => client.auditVerify({}),
    enabled: canVerify.known && canVerify.allowed,
  });
  const options = useQuery({ queryKey: ['audit:options'], queryFn: () => client.auditOptions({}) });
  const { head, total, table } = usePagedList({
    key: ['audit:query', filter],
    read: (offset, limit) => client.auditQuery({ filter, offset, limit }),
    cursorKey: filter,
  });
  const target = useDebouncedText(filter.target ?? '', (v) => update({ target: v.trim() }), 250);
  const v = verify.data;
  const team = useAppStatus().data?.host === 'team';

  return (
    <Stack h="100%" gap="xs">
      <ListHeader
        title="Audit"
        range={rangeLine(head, () => `${plural(total, 'entry', 'entries')} ${total === 1 ? 'matches' : 'match'} this view`)}
        rangeId="audit-range"
        reading="Reading the audit log…"
        exportMenu={{
          channel: 'audit:exportFile',
          label: `Export all ${formatCount(total)} entries of this view`,
          start: (fmt) => client.auditExportFile({ filter, format: fmt, timeZone: localZone() }),
        }}
      />
      {!canVerify.allowed ? (
        <Alert color="gray" title="Audit chain not checked" data-testid="audit-verification">
          {canVerify.reason}
        </Alert>
      ) : v ? (
        v.ok ? (
          <Alert color="teal" title="Audit chain intact" data-testid="audit-verification">
            {v.entries === 1 ? 'The 1 entry' : `All ${formatCount(v.entries)} entries`} verified: each one’s hash, its link to the one
            before, no gap, and the newest entry as recorded outside the log.{keyedText(v.keyed)}
          </Alert>
        ) : (
          <Alert color="red" title={`Audit chain broken at entry ${v.brokenAt}`} role="alert" data-testid="audit-verification">
            {v.problem}. {formatCount(v.entries)} entries in the log.{keyedText(v.keyed)} New actions are still recorded; export the log and
            keep
            {team ? ' the database' : ' this cache'} for investigation.
          </Alert>
        )
      ) : verify.error ? (
        <ErrorState title="The audit chain could not be checked" error={verify.error} />
      ) : null}
      {v?.imported?.length ? <ImportedChains chains={v.imported} /> : null}
      <FilterRow onClear={Object.keys(filter).length ? () => navigate({ search: '' }) : undefined}>
        <Select
          label="Operator"
          size="xs"
          w={240}
          clearable
          searchable
          placeholder="Anyone"
          data={options.data?.operators ?? []}
          value={filter.operator ?? null}
          onChange={(operator) => update({ operator })}
        />
        <Select
          label="Action"
          size="xs"
          w={200}
          clearable
          searchable
          placeholder="Any action"
          data={[
            ...new Set([
              ...(options.data?.actions ?? []),
              ...((options.data?.actions ?? []).some((a) => a.startsWith('retention:')) ? ['retention'] : []),
            ]),
          ].map((value) => ({ value, label: value === 'retention' ? 'Retention (every kind)' : auditActionText(value) }))}
          value={filter.action ?? null}
          onChange={(action) => update({ action })}
        />
        <TextInput label="Target (consent id)" size="xs" w={300} {...target.input} />
        <DayRangeInput w={240} value={daysOfPeriod(filter)} onChange={(picked) => update(periodOfDays(picked))} />
      </FilterRow>
      {head.error ? <ErrorState title="The audit log could not be read" error={head.error} /> : null}
      <WindowedTable<Row>
        label="Audit log"
        {...table}
        columns={team ? TEAM_COLUMNS : COLUMNS}
        rowId={(r) => String(r.seq)}
        rowLabel={(r) => `entry ${r.seq}: ${auditActionText(r.action)} by ${r.operator}`}
        rowTone={(r) => (r.result.startsWith('failed') ? 'warning' : undefined)}
        onOpen={(r) => r.target && navigate(`/consents/${encodeURIComponent(r.target)}?tab=timeline`)}
        empty={
          head.data ? (
            <EmptyState title="No entry matches this view">Staff actions and exports are recorded here as they happen.</EmptyState>
          ) : null
        }
      />
    </Stack>
  );
}

/** What the verification says of the team log's keying (absent: a solo console's log, which is not keyed). */
function keyedText(k: ChannelOutput<'audit:verify'>['keyed']): string {
  if (!k) return '';
  if (k.from === null) return ' The log is not keyed yet: its entries carry no MAC.';
  const older = k.unkeyed
    ? ` The ${formatCount(k.unkeyed)} entries before it were written before the log was keyed: their hashes are checked, they carry no MAC.`
    : '';
  return k.checked
    ? ` From entry ${formatCount(k.from)} each carries a MAC under the team’s audit key (${k.keyId}), checked: none was written without it.${older}`
    : ` From entry ${formatCount(k.from)} each carries a MAC, not checked here (the key is the servers’).${older}`;
}

/** The solo consoles' logs imported into the team's (cli team import-audit): each its own chain, checked as stored now. */
function ImportedChains({ chains }: { chains: NonNullable<ChannelOutput<'audit:verify'>['imported']> }) {
  const broken = chains.filter((c) => !c.ok).length;
  return (
    <Alert
      color={broken ? 'red' : 'gray'}
      title={`Imported solo audit logs: ${chains.length}${broken ? `, ${broken} broken` : ', each intact'}`}
      data-testid="audit-imported"
      {...(broken ? { role: 'alert' } : {})}
    >
      <List size="sm" spacing={2}>
        {chains.map((c) => (
          <List.Item key={c.chain}>
            {visibleText(c.origin)}: {plural(c.entries, 'entry', 'entries')}, {c.ok ? 'intact' : `BROKEN: ${c.problems.join('; ')}`}{' '}
            <Text span size="xs" ff="monospace" c="dimmed">
              ({c.chain})
            </Text>
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
