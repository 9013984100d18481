import { ComplaintsList } from '../complaints/ComplaintsList.js';
import { Anchor, Group, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useQueries, useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import type { ConsentRow } from '../../../../shared/ipc/contract.js';
import { useClient } from '../../bridge/ClientContext.js';
import { Copy } from '../../ui/Copy.js';
import { formatCount, plural } from '../../ui/format.js';
import { Panel } from '../../ui/Panel.js';
import { ScreenHeader } from '../../ui/ScreenHeader.js';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states.js';
import { StatusBadge } from '../../ui/StatusBadge.js';
import { TableHead } from '../../ui/TableHead.js';
import { Time } from '../../ui/Time.js';
import { VIEW_LABEL } from './views.js';

/**
 * One customer across their consents and data holders, from the cache (issue 34: a customer's data
 * was a maze of tabs and stacked filters): who they are, every consent of theirs with its status
 * and what is cached under it, their accounts at every data holder, and the cached records by kind,
 * each a link to the consent or the data it is about. Reached from a consent's consumer, the data
 * browser's consumers, or `#/data/customer?id=CONSUMER_ID`.
 */
const MOST = 200;

export function CustomerScreen() {
  const [params] = useSearchParams();
  const consumerId = params.get('id') ?? '';
  const client = useClient();
  const filter = { consumerIds: [consumerId] };
  const consents = useQuery({
    queryKey: ['consents:list', 'customer', consumerId],
    queryFn: () => client.consentsList({ filter, sort: { field: 'created', direction: 'desc' }, offset: 0, limit: MOST, withCount: true }),
    enabled: consumerId !== '',
  });
  const withData = useQuery({
    queryKey: ['data:consents', { consumerId }],
    queryFn: () => client.dataConsents({ consumerId, offset: 0, limit: MOST }),
    enabled: consumerId !== '',
  });
  const cached = (withData.data?.rows ?? []).filter((r) => r.records > 0);
  const metas = useQueries({
    queries: cached.map((r) => ({ queryKey: ['data:meta', r.consentId], queryFn: () => client.dataMeta({ consentId: r.consentId }) })),
  });

  if (!consumerId)
    return (
      <EmptyState title="Which customer?">
        Open a customer from a consent’s consumer, or from the data browser’s consumers (Data, By consumer).
      </EmptyState>
    );
  if (consents.error)
    return <ErrorState title="The customer’s consents could not be read" error={consents.error} onRetry={() => void consents.refetch()} />;
  if (!consents.data) return <LoadingState label="Reading the customer’s consents from the cache…" />;
  const rows = consents.data.rows;
  if (rows.length === 0)
    return (
      <EmptyState title="No consent of this customer is in the cache">
        Consumer id {consumerId} — sync to fetch their consents, or check the id.
      </EmptyState>
    );
  const total = consents.data.count?.total ?? rows.length;
  const first = rows[0]!;
  const records = new Map((withData.data?.rows ?? []).map((r) => [r.consentId, r]));
  const holders = new Set(rows.map((r) => r.dataHolderName ?? r.dataHolderBrandId ?? '—'));
  const active = rows.filter((r) => r.status === 'ACTIVE').length;
  const recordsTotal = cached.reduce((n, r) => n + r.records, 0);
  const metaOf = new Map(metas.flatMap((m) => (m.data ? [[m.data.consentId, m.data] as const] : [])));
  const byKind = new Map<string, { count: number; consents: ConsentRow[] }>();
  for (const r of rows) {
    const meta = metaOf.get(r.consentId);
    for (const k of meta?.kinds ?? []) {
      if (!k.count) continue;
      const entry = byKind.get(k.kind) ?? { count: 0, consents: [] };
      entry.count += k.count;
      entry.consents.push(r);
      byKind.set(k.kind, entry);
    }
  }
  const accounts = rows.flatMap((r) => (metaOf.get(r.consentId)?.accounts ?? []).map((a) => ({ ...a, consent: r })));

  return (
    <Stack gap="md" pb="xl">
      <ScreenHeader
        back={{ to: '/data?by=consumer', label: 'Consumers with cached data' }}
        title={first.consumerEmail ?? consumerId}
        description="One customer across their consents and data holders, from the cache — readable offline."
      >
        <Group gap="lg">
          <Group gap={4} wrap="nowrap">
            <Text size="sm" c="dimmed">
              Consumer id
            </Text>
            <Text size="sm" ff="monospace">
              {consumerId}
            </Text>
            <Copy value={consumerId} label="Copy the consumer id" />
          </Group>
          {first.consumerMobile ? (
            <Text size="sm">
              <Text span c="dimmed">
                Mobile
              </Text>{' '}
              {first.consumerMobile}
            </Text>
          ) : null}
        </Group>
      </ScreenHeader>
      <SimpleGrid cols={{ base: 3 }} spacing="sm" aria-label="The customer in numbers" role="group">
        <Figure label="Consents" value={total} hint={`${formatCount(active)} active`} />
        <Figure label="Data holders" value={holders.size} hint={[...holders].slice(0, 3).join(', ') + (holders.size > 3 ? '…' : '')} />
        <Figure label="Cached records" value={recordsTotal} hint={plural(cached.length, 'consent with data', 'consents with data')} />
      </SimpleGrid>
      <Panel title="Consents" label="The customer’s consents">
        <Table fz="sm" withTableBorder aria-label="The customer’s consents">
          <TableHead columns={['Status', 'Data holder', 'Use case', 'Created', 'Sharing ends', 'Cached records', 'Open']} />
          <Table.Tbody>
            {rows.map((r) => {
              const data = records.get(r.consentId);
              return (
                <Table.Tr key={r.consentId}>
                  <Table.Td>
                    <StatusBadge status={r.status} />
                  </Table.Td>
                  <Table.Td>{r.dataHolderName ?? '—'}</Table.Td>
                  <Table.Td>{r.useCaseName ?? '—'}</Table.Td>
                  <Table.Td>
                    <Time iso={r.created} dateOnly />
                  </Table.Td>
                  <Table.Td>
                    <Time iso={r.sharingEndDate} dateOnly />
                  </Table.Td>
                  <Table.Td>{data ? formatCount(data.records) : '0'}</Table.Td>
                  <Table.Td>
                    <Group gap="sm" wrap="nowrap">
                      <Anchor
                        component={Link}
                        to={`/consents/${encodeURIComponent(r.consentId)}`}
                        size="sm"
                        aria-label={`The consent at ${r.dataHolderName ?? 'its data holder'}, created ${r.created ?? ''}`}
                      >
                        Consent
                      </Anchor>
                      {data?.records ? (
                        <Anchor
                          component={Link}
                          to={`/data?consent=${encodeURIComponent(r.consentId)}`}
                          size="sm"
                          aria-label={`Its data at ${r.dataHolderName ?? 'its data holder'}`}
                        >
                          Data
                        </Anchor>
                      ) : null}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
        {total > rows.length ? (
          <Text size="xs" c="dimmed" mt={4}>
            The newest {formatCount(rows.length)} of {formatCount(total)} are listed.
          </Text>
        ) : null}
      </Panel>
      <Panel
        title="Complaints"
        label="The customer’s complaints"
        description="The complaints register’s records of this consumer (CDR rule 9.3)."
      >
        <ComplaintsList filter={{ consumerId }} about={{ consumerId }} />
      </Panel>
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
        <Panel title="Accounts" label="The customer’s accounts" description="At every data holder, as last fetched.">
          {accounts.length === 0 ? (
            <Text size="sm" c="dimmed">
              {cached.length
                ? metas.some((m) => m.isPending)
                  ? 'Reading…'
                  : 'No accounts are cached.'
                : 'No data of this customer is cached.'}
            </Text>
          ) : (
            <Table fz="sm" aria-label="The customer’s accounts">
              <TableHead columns={['Account', 'Data holder']} />
              <Table.Tbody>
                {accounts.map((a) => (
                  <Table.Tr key={`${a.consent.consentId}-${a.accountId}`}>
                    <Table.Td>
                      <Anchor component={Link} to={`/data?consent=${encodeURIComponent(a.consent.consentId)}&view=accounts`} size="sm">
                        {a.label}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{a.consent.dataHolderName ?? '—'}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Panel>
        <Panel
          title="Cached data by kind"
          label="The customer’s cached data by kind"
          description="Summed over their consents; each consent’s records one click away."
        >
          {byKind.size === 0 ? (
            <Text size="sm" c="dimmed">
              {cached.length ? 'Reading…' : 'No data of this customer is cached.'}
            </Text>
          ) : (
            <Table fz="sm" aria-label="The customer’s cached data by kind">
              <TableHead columns={['Kind', 'Records', 'Under the consents at']} />
              <Table.Tbody>
                {[...byKind].map(([kind, k]) => (
                  <Table.Tr key={kind}>
                    <Table.Td>{VIEW_LABEL[kind as keyof typeof VIEW_LABEL] ?? kind}</Table.Td>
                    <Table.Td>{formatCount(k.count)}</Table.Td>
                    <Table.Td>
                      <Group gap="xs">
                        {k.consents.map((c) => (
                          <Anchor
                            key={c.consentId}
                            component={Link}
                            to={`/data?consent=${encodeURIComponent(c.consentId)}&view=${kind}`}
                            size="sm"
                          >
                            {c.dataHolderName ?? c.consentId}
                          </Anchor>
                        ))}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Panel>
      </SimpleGrid>
    </Stack>
  );
}

function Figure({ label, value, hint }: { label: string; value: number; hint: string }) {
  return (
    <Stack gap={0} p="sm" style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 'var(--mantine-radius-sm)' }}>
      <Text size="xs" c="dimmed" fw={500}>
        {label}
      </Text>
      <Text fz={24} fw={700} data-testid={`customer-${label.toLowerCase().replace(/ /g, '-')}`}>
        {formatCount(value)}
      </Text>
      <Text size="xs" c="dimmed" truncate="end">
        {hint || '—'}
      </Text>
    </Stack>
  );
}
