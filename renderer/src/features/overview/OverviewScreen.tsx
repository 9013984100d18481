import { Alert, Badge, Button, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { addDays, addWeeks, format, startOfISOWeek } from 'date-fns';
import { useEffect, useState } from 'react';
import { dataRecordTotal } from '../../../../shared/ipc/sync-summary.js';
import { inZone, utcIso } from '../../../../shared/time/zone.js';
import { useClient } from '../../bridge/ClientContext.js';
import { ChartPanel, PanelBarChart } from '../../ui/ChartPanel.js';
import { fillDays } from '../../ui/days.js';
import { formatAgo, formatCount, localZone } from '../../ui/format.js';
import { Panel } from '../../ui/Panel.js';
import { ScreenHeader } from '../../ui/ScreenHeader.js';
import { ErrorState } from '../../ui/states.js';
import { ink } from '../../ui/ink.js';
import { useSession } from '../../stores/session.js';
import { StatTile } from '../../ui/StatTile.js';
import { TableHead } from '../../ui/TableHead.js';
import { markFirstScreenShown } from '../../ui/first-screen.js';
import { Time } from '../../ui/Time.js';
import { consentsLink, filterOf, type ConsentView } from '../consents/index.js';
import { eventsLink, WEBHOOK_DELIVERIES, WEBHOOK_FAILURES } from '../events/index.js';
import { eventSeries, statusTerm } from '../../ui/glossary.js';

/** Before any sync has filled the cache: say why every number is 0, and start the first sync. */
function EmptyCache() {
  const client = useClient();
  const progress = useSession((s) => s.syncProgress);
  const sync = useMutation({ mutationFn: () => client.syncStart({}) });
  const running = progress !== null || sync.isPending;
  return (
    <Alert color="blue" title="Nothing is cached yet" role="status">
      <Text size="sm">
        {running
          ? 'The first sync is running: the numbers below fill in as consents and events arrive (progress in the status bar).'
          : 'Every number below counts the local cache, which is empty until a sync with the intermediary finishes.'}
      </Text>
      {running ? null : (
        <Button size="xs" mt="xs" onClick={() => sync.mutate()}>
          Sync with the intermediary now
        </Button>
      )}
      {sync.error ? (
        <Text size="sm" c={ink('red')} mt="xs">
          {sync.error.message}
        </Text>
      ) : null}
    </Alert>
  );
}

/**
 * The home screen a compliance or support lead opens first: consents by status, those expiring
 * soon, active ones never collected, webhook failures with their trend, grants and withdrawals per
 * week, and how the last sync went. Every number links to the list it counts — built from the same
 * filter, so the list shows exactly that many.
 */
const STATUSES = ['ACTIVE', 'REQUESTED', 'REVOKED', 'EXPIRED'] as const;

function useCount(view: Partial<ConsentView>) {
  const client = useClient();
  const filter = filterOf({ ...emptyView, ...view });
  return useQuery({ queryKey: ['consents:count', filter], queryFn: () => client.consentsCount({ filter }) }).data?.total;
}
const emptyView: ConsentView = {
  search: '',
  statuses: [],
  dataHolderBrandIds: [],
  useCaseIds: [],
  accessFrequencies: [],
  postUsageActions: [],
  directMarketing: undefined,
  collected: undefined,
  created: {},
  sharingEnd: {},
  revoked: {},
  webhookFailures: '',
  sort: { field: 'created', direction: 'desc' },
  columns: null,
};

export function OverviewScreen() {
  const client = useClient();
  // "Now" is fixed when the screen opens, so each number and its link count the same window.
  const [now] = useState(() => new Date());
  const today = format(now, 'yyyy-MM-dd', inZone());
  const expiring = (days: number): Partial<ConsentView> => ({
    statuses: ['ACTIVE'],
    sharingEnd: { from: today, to: format(addDays(now, days, inZone()), 'yyyy-MM-dd', inZone()) },
  });
  const neverCollected: Partial<ConsentView> = { statuses: ['ACTIVE'], collected: false };
  const all = useQuery({ queryKey: ['consents:count', {}], queryFn: () => client.consentsCount({ filter: {} }) });
  const expiring7 = useCount(expiring(7));
  const expiring30 = useCount(expiring(30));
  const never = useCount(neverCollected);

  const since = (ms: number) => new Date(now.getTime() - ms).toISOString();
  const day = 86_400_000;
  const failures = (from: string) => ({ types: [...WEBHOOK_FAILURES], from });
  const f24 = useQuery({
    queryKey: ['events:count', failures(since(day))],
    queryFn: () => client.eventsCount({ filter: failures(since(day)) }),
  });
  const f7 = useQuery({
    queryKey: ['events:count', failures(since(7 * day))],
    queryFn: () => client.eventsCount({ filter: failures(since(7 * day)) }),
  });
  const trendFrom = since(30 * day);
  const trend = useQuery({
    queryKey: ['events:days', 'webhooks', trendFrom],
    queryFn: () => client.eventsDays({ filter: { types: [...WEBHOOK_DELIVERIES], from: trendFrom }, days: 31, timeZone: localZone() }),
  });
  const weeksFrom = startOfISOWeek(addWeeks(now, -25, inZone()), inZone());
  const lifecycle = useQuery({
    queryKey: ['events:days', 'lifecycle', utcIso(weeksFrom)],
    queryFn: () =>
      client.eventsDays({ filter: { types: ['GRANTED', 'REVOKED'], from: utcIso(weeksFrom) }, days: 200, timeZone: localZone() }),
  });
  const last = useQuery({ queryKey: ['sync:last'], queryFn: () => client.syncLast({}) });

  const trendDays = trend.data?.length
    ? fillDays(trend.data, { from: format(new Date(trendFrom), 'yyyy-MM-dd', inZone()), to: today })
    : [];
  const trendRows = trendDays.map((d) => {
    const failed = WEBHOOK_FAILURES.reduce((n, t) => n + (d.counts[t] ?? 0), 0);
    const delivered = d.counts.WEBHOOK_SENT ?? 0;
    return {
      day: d.day,
      label: format(new Date(`${d.day}T00:00:00`), 'd MMM'),
      failed,
      delivered,
      rate: failed + delivered ? failed / (failed + delivered) : 0,
    };
  });
  const weeks = new Map<string, { week: string; label: string; granted: number; withdrawn: number }>();
  for (let w = 0; w < 26; w++) {
    const start = addWeeks(weeksFrom, w);
    const key = format(start, 'yyyy-MM-dd', inZone());
    weeks.set(key, { week: key, label: format(start, 'd MMM', inZone()), granted: 0, withdrawn: 0 });
  }
  for (const d of lifecycle.data ?? []) {
    const w = weeks.get(format(startOfISOWeek(new Date(`${d.day}T00:00:00`)), 'yyyy-MM-dd'));
    if (!w) continue;
    w.granted += d.counts.GRANTED ?? 0;
    w.withdrawn += d.counts.REVOKED ?? 0;
  }
  const weekRows = [...weeks.values()];
  const countOf = (s: string) => all.data?.statuses.find((x) => x.status === s)?.count ?? (all.data ? 0 : undefined);
  const summary = last.data;
  // The overview has shown its figures: the shell's parts that can wait load now (ui/first-screen.ts).
  const shown = all.data !== undefined;
  useEffect(() => {
    if (shown) markFirstScreenShown();
  }, [shown]);

  return (
    <Stack gap="md" pb="xl">
      <ScreenHeader
        title="Overview"
        description={`From the local cache${summary ? `, as of the sync ${formatAgo(summary.finishedAt)}` : ''}. Every number opens the list it counts.`}
      />
      {all.error ? <ErrorState title="The cache could not be read" error={all.error} /> : null}
      {last.data === null && all.data?.total === 0 ? <EmptyCache /> : null}
      <section aria-label="Consents by status">
        <Title order={3} size="h5" mb={6}>
          Consents by status
        </Title>
        <SimpleGrid cols={{ base: 2, md: 4 }} spacing="sm">
          {STATUSES.map((s) => (
            <StatTile
              key={s}
              id={s}
              label={statusTerm(s)!.words}
              value={countOf(s)}
              to={consentsLink({ statuses: [s] })}
              tone={statusTerm(s)!.pill}
            />
          ))}
        </SimpleGrid>
      </section>
      <section aria-label="Needs attention">
        <Title order={3} size="h5" mb={6}>
          Needs attention
        </Title>
        <SimpleGrid cols={{ base: 2, md: 5 }} spacing="sm">
          <StatTile
            label="Expiring within 7 days"
            value={expiring7}
            to={consentsLink(expiring(7))}
            hint="Active, sharing ends by the 7th day"
          />
          <StatTile
            label="Expiring within 30 days"
            value={expiring30}
            to={consentsLink(expiring(30))}
            hint="Active, sharing ends by the 30th day"
          />
          <StatTile label="Active, never collected" value={never} to={consentsLink(neverCollected)} hint="No first data collection yet" />
          <StatTile
            label="Webhook failures, 24 hours"
            value={f24.data?.total}
            to={eventsLink('/webhook-failures', { from: since(day) }, '1')}
            // Red only when something failed: a red 0 read as an alarm.
            {...(f24.data?.total ? { tone: 'red' } : {})}
          />
          <StatTile
            label="Webhook failures, 7 days"
            value={f7.data?.total}
            to={eventsLink('/webhook-failures', { from: since(7 * day) }, '7')}
            {...(f7.data?.total ? { tone: 'red' } : {})}
          />
        </SimpleGrid>
      </section>
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
        <ChartPanel
          title="Webhook deliveries per day, last 30 days"
          description="Failed attempts (red) against successful deliveries; the table has the failure rate."
          rows={trendRows}
          columns={[
            { key: 'day', label: 'Day', value: (r) => r.day },
            { key: 'delivered', label: 'Delivered', value: (r) => r.delivered },
            { key: 'failed', label: 'Failed attempts', value: (r) => r.failed },
            { key: 'rate', label: 'Failure rate', value: (r) => `${(r.rate * 100).toFixed(1)} %` },
          ]}
          empty="No webhook deliveries in the last 30 days."
          chart={
            <PanelBarChart
              h={220}
              data={trendRows}
              dataKey="label"
              type="stacked"
              series={[eventSeries('WEBHOOK_SENT', 'delivered', 'Delivered'), eventSeries('WEBHOOK_SENDING_FAILED', 'failed', 'Failed')]}
              withLegend
            />
          }
        />
        <ChartPanel
          title="Consents granted and withdrawn per week"
          description="From the intermediary’s GRANTED and REVOKED events, last 26 weeks (weeks start on Monday)."
          rows={weekRows}
          columns={[
            { key: 'week', label: 'Week of', value: (r) => r.week },
            { key: 'granted', label: 'Granted', value: (r) => r.granted },
            { key: 'withdrawn', label: 'Withdrawn', value: (r) => r.withdrawn },
          ]}
          chart={
            <PanelBarChart
              h={220}
              data={weekRows}
              dataKey="label"
              series={[eventSeries('GRANTED', 'granted', 'Granted'), eventSeries('REVOKED', 'withdrawn', 'Withdrawn')]}
              withLegend
            />
          }
        />
      </SimpleGrid>
      <Panel
        title="Last sync"
        aside={
          summary ? (
            <Badge color={summary.failures.length ? 'orange' : 'teal'} variant="light">
              {summary.failures.length ? `${summary.failures.length} part(s) failed` : 'Every part succeeded'}
            </Badge>
          ) : null
        }
      >
        {!summary ? (
          <Text size="sm" c="dimmed">
            No sync has finished with this cache yet: use Sync now in the status bar.
          </Text>
        ) : (
          <Table fz="sm" withTableBorder aria-label="Last sync of each part">
            <TableHead columns={['Part', 'Result']} />
            <Table.Tbody>
              {[
                [
                  'Consents',
                  `${formatCount(summary.consents.fetched)} read — ${formatCount(summary.consents.new)} new, ${formatCount(summary.consents.changed)} changed`,
                ],
                ['Events', `${formatCount(summary.events.new)} new of ${formatCount(summary.events.fetched)} read`],
                ['Use cases', formatCount(summary.useCases)],
                ['Data holders', formatCount(summary.dataHolders)],
                ...(summary.data ? [['Data API records', formatCount(dataRecordTotal(summary))]] : []),
                ...(summary.retention?.length
                  ? [['Retention', `${summary.retention.length} consents’ data deleted or de-identified`]]
                  : []),
                ...(summary.retries
                  ? [['Retries', `${formatCount(summary.retries)} calls repeated after a transient fault (5xx, 429, a dropped connection)`]]
                  : []),
                ...summary.failures.map((f) => [`Failed: ${f.phase}`, f.reason]),
              ].map(([part, result]) => (
                <Table.Tr key={part}>
                  <Table.Td>{part}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{result}</Table.Td>
                </Table.Tr>
              ))}
              <Table.Tr>
                <Table.Td>Finished</Table.Td>
                <Table.Td>
                  <Time iso={summary.finishedAt} seconds focusable /> ({summary.resumed ? 'resumed after an interruption' : 'complete run'})
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
        )}
      </Panel>
    </Stack>
  );
}
