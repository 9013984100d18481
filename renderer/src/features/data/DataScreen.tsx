import { Alert, Anchor, Badge, Button, Group, SegmentedControl, Stack, Table, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import type { DataConsentRow } from '../../../../shared/ipc/contract.js';
import { useClient } from '../../bridge/ClientContext.js';
import { useDebouncedText } from '../../ui/fields.js';
import { FilterRow } from '../../ui/FilterRow.js';
import { enumText, formatCount, plural } from '../../ui/format.js';
import { ListHeader, rangeLine } from '../../ui/ListHeader.js';
import { SelectionBar, useChosen } from '../../ui/SelectionBar.js';
import { EmptyState, ErrorState } from '../../ui/states.js';
import { usePagedList } from '../../ui/table/useWindowedList.js';
import { WindowedTable, type Column } from '../../ui/table/WindowedTable.js';
import { TableHead } from '../../ui/TableHead.js';
import { Time } from '../../ui/Time.js';
import { withParams } from '../../ui/url.js';
import { ConsentData } from './ConsentData.js';
import { customerLink } from './customer-link.js';
import { NoCachedDataYet, SyncJob, useDataSync } from './data-sync.js';

/**
 * The data browser: customer data from the cache, offline. Without a consent chosen it lists the
 * consents whose data is cached (or was, before retention), by consent, by consumer or by data
 * holder, and syncs data for chosen consents or all active ones as a job; with one (`?consent=`), it
 * shows that consent's data view by view.
 */
export function DataScreen() {
  const [params] = useSearchParams();
  const consentId = params.get('consent');
  return consentId ? <ConsentData consentId={consentId} /> : <DataNavigator />;
}

const CONSENT_COLUMNS: Column<DataConsentRow>[] = [
  {
    id: 'consent',
    header: 'Consent',
    width: 300,
    // Plain text: the row opens the consent's data (click, Enter); a link's colour would not read on the active row.
    cell: (c) => <span title={c.consentId}>{c.consentId}</span>,
  },
  {
    id: 'consumer',
    header: 'Consumer',
    width: 240,
    // The customer's view: all their consents and data (a click on the row opens this consent's data).
    cell: (c) =>
      c.consumerId ? (
        <Anchor component={Link} to={customerLink(c.consumerId)} size="sm" title="All of this customer’s consents and data">
          {c.consumerEmail ?? c.consumerId}
        </Anchor>
      ) : (
        (c.consumerEmail ?? '—')
      ),
  },
  { id: 'holder', header: 'Data holder', width: 200, cell: (c) => c.dataHolderName ?? '—' },
  { id: 'status', header: 'Status', width: 110, cell: (c) => enumText(c.status) },
  {
    id: 'records',
    header: 'Records',
    width: 170,
    cell: (c) =>
      c.records ? (
        formatCount(c.records)
      ) : c.retention ? (
        <Badge size="sm" color="gray" variant="light">
          {c.retention.split(' ')[0]} by retention
        </Badge>
      ) : (
        '0'
      ),
  },
  { id: 'fetched', header: 'Last fetched', width: 180, cell: (c) => <Time iso={c.lastFetchedAt} /> },
];

function DataNavigator() {
  const client = useClient();
  const [params, setParams] = useSearchParams();
  const by = (params.get('by') ?? 'consent') as 'consent' | 'consumer' | 'holder';
  const consumer = params.get('consumer') ?? undefined;
  const holder = params.get('holder') ?? undefined;
  const search = useDebouncedText(params.get('q') ?? '', (q) => setParams((p) => withParams(p, { q: q.trim() }), { replace: true }), 200);
  const q = params.get('q') ?? undefined;
  const go = (next: Record<string, string | undefined>) =>
    setParams(() => {
      const n = new URLSearchParams();
      for (const [k, v] of Object.entries(next)) if (v) n.set(k, v);
      return n;
    });
  const listInput = {
    ...(consumer ? { consumerId: consumer } : {}),
    ...(holder ? { dataHolderBrandId: holder } : {}),
    ...(q ? { search: q } : {}),
  };
  const { head, total, table } = usePagedList({
    key: ['data:consents', listInput],
    read: (offset, limit) => client.dataConsents({ ...listInput, offset, limit }),
    enabled: by === 'consent',
  });
  const groups = useQuery({
    queryKey: ['data:groups', by, q],
    queryFn: () => client.dataGroups({ by: by as 'consumer' | 'holder', ...(q ? { search: q } : {}) }),
    enabled: by !== 'consent',
  });
  const { chosen, clear, selection } = useChosen<DataConsentRow>((c) => c.consentId, {
    headerLabel: 'Clear the chosen consents',
    most: 1000,
  });
  const sync = useDataSync();

  return (
    <Stack h="100%" gap="xs">
      <ListHeader
        title="Data"
        range={
          <>
            Customer data from the cache — readable offline.{' '}
            {by === 'consent' ? (rangeLine(head, () => `${plural(total, 'consent')} with cached data in this view.`) ?? '') : ''}
          </>
        }
        rangeId="data-range"
        actions={
          <Group gap="xs">
            <Button
              size="xs"
              variant="default"
              disabled={sync.running}
              title="What the intermediary retrieved since the last data sync (everything the first time)"
              onClick={() => void sync.start({ allActive: true })}
            >
              Sync data of all active consents
            </Button>
            <Button
              size="xs"
              variant="subtle"
              disabled={sync.running}
              title="Every record of every active consent again, not only what is new"
              onClick={() => void sync.start({ allActive: true, full: true })}
            >
              Read all again
            </Button>
          </Group>
        }
      />
      <SyncJob sync={sync} />
      <FilterRow>
        <SegmentedControl
          size="xs"
          aria-label="Browse by"
          value={by}
          onChange={(v) => go({ by: v === 'consent' ? undefined : v })}
          data={[
            { value: 'consent', label: 'By consent' },
            { value: 'consumer', label: 'By consumer' },
            { value: 'holder', label: 'By data holder' },
          ]}
        />
        <TextInput
          size="xs"
          w={300}
          type="search"
          label={by === 'consent' ? 'Find a consent' : by === 'consumer' ? 'Find a consumer' : 'Find a data holder'}
          placeholder={by === 'consent' ? 'Consent id, e-mail or data holder' : 'Name, e-mail or id'}
          {...search.input}
        />
        {consumer || holder ? (
          <Group gap={4}>
            <Badge variant="light">{consumer ? `Consumer ${consumer}` : `Data holder ${holder}`}</Badge>
            <Button size="compact-xs" variant="subtle" onClick={() => go({})}>
              Show all
            </Button>
          </Group>
        ) : null}
      </FilterRow>
      {by === 'consent' ? (
        <>
          {chosen.length ? (
            <SelectionBar label="Chosen consents" summary={`${plural(chosen.length, 'consent')} chosen`} onClear={clear}>
              <Button size="xs" disabled={sync.running} onClick={() => void sync.start({ consentIds: chosen.map((c) => c.consentId) })}>
                Sync data of {plural(chosen.length, 'chosen consent')}
              </Button>
            </SelectionBar>
          ) : null}
          {head.error ? <ErrorState title="The cache could not be read" error={head.error} /> : null}
          <WindowedTable<DataConsentRow>
            label="Consents with cached data"
            {...table}
            columns={CONSENT_COLUMNS}
            rowId={(c) => c.consentId}
            rowLabel={(c) => `${c.consentId} of ${c.consumerEmail ?? 'unknown consumer'}`}
            onOpen={(c) => go({ consent: c.consentId })}
            selection={selection}
            empty={
              head.data ? (
                search.value || consumer || holder ? (
                  <EmptyState title="No cached data in this view">
                    Data is fetched for ACTIVE consents: change or clear the search, sync all active consents here, or one from its consent
                    page (Cached data).
                  </EmptyState>
                ) : (
                  <NoCachedDataYet what="customer data" sync={sync} syncAbove />
                )
              ) : null
            }
          />
        </>
      ) : (
        <>
          {groups.error ? <ErrorState title="The cache could not be read" error={groups.error} /> : null}
          {groups.data && groups.data.groups.length === 0 ? (
            search.value ? (
              <EmptyState title="No cached data in this view">Change or clear the search.</EmptyState>
            ) : (
              <NoCachedDataYet what="customer data" sync={sync} syncAbove />
            )
          ) : null}
          {groups.data?.groups.length ? (
            <Table
              fz="sm"
              striped
              highlightOnHover
              withTableBorder
              aria-label={by === 'consumer' ? 'Consumers with cached data' : 'Data holders with cached data'}
            >
              <TableHead columns={[by === 'consumer' ? 'Consumer' : 'Data holder', 'Consents', 'Records', 'Last fetched']} />
              <Table.Tbody>
                {groups.data.groups.map((g) => (
                  <Table.Tr key={g.id}>
                    <Table.Td>
                      <Anchor
                        component={Link}
                        to={by === 'consumer' ? customerLink(g.id) : `/data?holder=${encodeURIComponent(g.id)}`}
                        size="sm"
                      >
                        {g.label}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{formatCount(g.consents)}</Table.Td>
                    <Table.Td>{formatCount(g.records)}</Table.Td>
                    <Table.Td>
                      <Time iso={g.lastFetchedAt} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          ) : null}
          {groups.data && groups.data.total > groups.data.groups.length ? (
            <Alert color="gray">
              The first {formatCount(groups.data.groups.length)} of {formatCount(groups.data.total)} are listed: search to narrow.
            </Alert>
          ) : null}
        </>
      )}
    </Stack>
  );
}
