import { Anchor, Badge, Code, Group, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { format } from 'date-fns';
import { inZone } from '../../../../shared/time/zone.js';
import { useDeferredValue, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { visibleText } from '../../../../shared/text/visible.js';
import { useClient } from '../../bridge/ClientContext.js';
import { useAfterFirstPaint } from '../../ui/after-paint.js';
import { ChartPanel, PanelBarChart } from '../../ui/ChartPanel.js';
import { fillDays } from '../../ui/days.js';
import { Copy } from '../../ui/Copy.js';
import { enumText, formatCount, formatLocalDateTime, localZone, plural } from '../../ui/format.js';
import { ListHeader, rangeLine } from '../../ui/ListHeader.js';
import { Panel } from '../../ui/Panel.js';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states.js';
import { TableHead } from '../../ui/TableHead.js';
import { Time } from '../../ui/Time.js';
import { useEventsCount, useEventsDays, useEventView, WEBHOOK_DELIVERIES, WEBHOOK_FAILURES } from '../events/index.js';
import { eventSeries } from '../../ui/glossary.js';

/**
 * Webhook-failure triage, across consents: failed attempts against deliveries per day (the failure
 * rate), failures grouped by what the target answered — ids, numbers and times masked so the same
 * error groups together — with each message in full, and the consents affected, those that reached
 * the retry maximum first. Links go to each consent's timeline.
 */
const RANGES = [
  { value: '1', label: '24 hours' },
  { value: '7', label: '7 days' },
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: 'all', label: 'All' },
];
const DAY = 86_400_000;
const dayOf = (instant: string) => format(new Date(instant), 'yyyy-MM-dd', inZone());
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/**
 * "2026-03-05" as "5 Mar" (date-fns' "d MMM", without parsing a date for each of a year of days),
 * or "5 Mar 2026" when the period spans more than one year.
 */
const dayLabel = (day: string, withYear: boolean) =>
  `${Number(day.slice(8, 10))} ${MONTHS[Number(day.slice(5, 7)) - 1]}${withYear ? ` ${day.slice(0, 4)}` : ''}`;
/** The period the screen opens on, without a period in its address: the last 30 days ("All" is a choice). */
const DEFAULT_RANGE = '30';

export function WebhookFailuresScreen() {
  const client = useClient();
  const [view] = useEventView();
  const [params, setParams] = useSearchParams();
  // Opened without a period: the last 30 days from when it opened (fixed, so the reads keep one key).
  const [openedAt] = useState(() => Date.now());
  const range = params.get('range');
  const from = view.from ?? (range === 'all' ? undefined : new Date(openedAt - Number(DEFAULT_RANGE) * DAY).toISOString());
  const filter = { types: [...WEBHOOK_FAILURES], ...(from ? { from } : {}), ...(view.to ? { to: view.to } : {}) };
  const deliveriesFilter = { ...filter, types: [...WEBHOOK_DELIVERIES] };
  const summary = useQuery({
    queryKey: ['webhooks:summary', filter],
    queryFn: () => client.webhooksSummary({ filter }),
    placeholderData: keepPreviousData,
  });
  // The two tables below hold up to 500 rows each (a few hundred ms to render on a slow machine):
  // rendered in the background, once the heading and the chart have been painted, and interrupted
  // by them.
  const painted = useAfterFirstPaint();
  const groups = useDeferredValue(painted ? (summary.data ?? null) : null, null);
  const count = useEventsCount(filter);
  // A year at most: "All" draws every day of it.
  const days = useEventsDays(deliveriesFilter, 366);
  // The preset that set the period, when one did (the period itself is the instant in `from`).
  const selected = view.from ? (range ?? 'custom') : range === 'all' ? 'all' : DEFAULT_RANGE;
  // Every day of the period, quiet ones too, up to today (or the period's end): worked out again
  // only when the days read change, not at each render (a year of days).
  const rows = useMemo(() => {
    const filled = days.data?.length
      ? fillDays(days.data, {
          ...(from ? { from: dayOf(from) } : {}),
          to: view.to ? dayOf(view.to) : format(new Date(), 'yyyy-MM-dd', inZone()),
        })
      : [];
    const withYear = filled.length > 0 && filled[0]!.day.slice(0, 4) !== filled.at(-1)!.day.slice(0, 4);
    return filled.map((d) => {
      const failed = WEBHOOK_FAILURES.reduce((n, t) => n + (d.counts[t] ?? 0), 0);
      const sent = d.counts.WEBHOOK_SENT ?? 0;
      return {
        day: d.day,
        label: dayLabel(d.day, withYear),
        sent,
        clientError: d.counts.WEBHOOK_SENDING_FAILED_CLIENT_ERROR ?? 0,
        failed: d.counts.WEBHOOK_SENDING_FAILED ?? 0,
        maxRetries: d.counts.WEBHOOK_MAX_RETRIES_REACHED ?? 0,
        rate: sent + failed ? failed / (sent + failed) : 0,
        allFailed: failed,
      };
    });
  }, [days.data, from, view.to]);
  const total = count.data?.total;

  return (
    <Stack gap="md" pb="xl">
      <ListHeader
        title="Webhook failures"
        range={rangeLine(
          count,
          (c) =>
            `${plural(c.total, 'failed delivery', 'failed deliveries')} ${from ? `since ${formatLocalDateTime(from)}` : 'in the cache'}${
              summary.data && !summary.isPlaceholderData ? `, ${plural(summary.data.consentsAffected, 'consent')} affected` : ''
            }`,
        )}
        rangeId="webhook-range"
        actions={
          <SegmentedControl
            size="xs"
            aria-label="Period"
            value={selected}
            onChange={(v) => {
              const p = new URLSearchParams();
              if (v !== 'all') p.set('from', new Date(Date.now() - Number(v) * DAY).toISOString());
              p.set('range', v);
              setParams(p);
            }}
            data={selected === 'custom' ? [...RANGES, { value: 'custom', label: 'Custom' }] : RANGES}
          />
        }
        exportMenu={{
          channel: 'events:export',
          label: `Export all ${formatCount(total ?? 0)} failures of this period`,
          start: (format) => client.eventsExport({ filter, format, timeZone: localZone() }),
        }}
      />
      {summary.error ? <ErrorState title="The webhook failures could not be read" error={summary.error} /> : null}
      <ChartPanel
        title="Deliveries and failures per day"
        description="Successful deliveries and each kind of failed attempt; the table has the failure rate (failed attempts ÷ attempts)."
        rows={rows}
        empty="No webhook deliveries in this period."
        columns={[
          { key: 'day', label: 'Day', value: (r) => r.day },
          { key: 'sent', label: 'Delivered', value: (r) => r.sent },
          { key: 'clientError', label: 'Refused (client error)', value: (r) => r.clientError },
          { key: 'failed', label: 'Failed (5xx, network)', value: (r) => r.failed },
          { key: 'maxRetries', label: 'Retries exhausted', value: (r) => r.maxRetries },
          { key: 'rate', label: 'Failure rate', value: (r) => `${(r.rate * 100).toFixed(1)} %` },
        ]}
        chart={
          <PanelBarChart
            h={200}
            data={rows}
            dataKey="label"
            type="stacked"
            withLegend
            series={[
              eventSeries('WEBHOOK_SENT', 'sent', 'Delivered'),
              eventSeries('WEBHOOK_SENDING_FAILED_CLIENT_ERROR', 'clientError', 'Refused (client error)'),
              eventSeries('WEBHOOK_SENDING_FAILED', 'failed', 'Failed'),
              eventSeries('WEBHOOK_MAX_RETRIES_REACHED', 'maxRetries', 'Retries exhausted'),
            ]}
          />
        }
      />
      <Panel
        title="By response"
        label="Failures by response"
        description="What the webhook target answered, with ids, numbers and times masked so the same error groups together; the latest message in full below each."
      >
        {!groups ? (
          <LoadingState label="Grouping the failures…" />
        ) : groups.byMessage.length === 0 ? (
          <EmptyState title="No webhook failures in this period" />
        ) : (
          <Table fz="sm" withTableBorder verticalSpacing={6} aria-label="Failures grouped by response">
            <TableHead columns={['Response', ['Failures', 80], ['Consents', 90], ['First seen', 170], ['Last seen', 170]]} />
            <Table.Tbody>
              {groups.byMessage.map((g) => (
                <Table.Tr key={g.key} data-testid="failure-group">
                  <Table.Td>
                    <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                      {visibleText(g.key)}
                    </Text>
                    <Group gap={4}>
                      {g.types.map((t) => (
                        <Badge key={t} size="xs" variant="light" color="red">
                          {enumText(t)}
                        </Badge>
                      ))}
                    </Group>
                    {g.sample ? (
                      <Group gap={4} wrap="nowrap" align="flex-start" mt={4}>
                        <Code
                          block
                          style={{ flex: 1, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
                          aria-label="Latest message in full"
                        >
                          {visibleText(g.sample)}
                        </Code>
                        <Copy value={g.sample} label="Copy the message" />
                      </Group>
                    ) : null}
                  </Table.Td>
                  <Table.Td>{formatCount(g.count)}</Table.Td>
                  <Table.Td>{formatCount(g.consents)}</Table.Td>
                  <Table.Td>
                    <Time iso={g.firstSeen} />
                  </Table.Td>
                  <Table.Td>
                    <Time iso={g.lastSeen} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Panel>
      <Panel title="By consent" label="Failures by consent">
        {groups?.byConsent.length ? (
          <Table fz="sm" withTableBorder striped aria-label="Consents with webhook failures">
            <TableHead columns={['Consent', 'Data holder', ['Failures', 90], ['Retries exhausted', 150], ['Last failure', 170]]} />
            <Table.Tbody>
              {groups.byConsent.map((c) => (
                <Table.Tr key={c.consentId}>
                  <Table.Td>
                    <Anchor component={Link} to={`/consents/${encodeURIComponent(c.consentId)}?tab=timeline`} size="sm">
                      {c.consumerEmail ?? c.consentId}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{c.dataHolderName ?? '—'}</Table.Td>
                  <Table.Td>{formatCount(c.failures)}</Table.Td>
                  <Table.Td>
                    {c.maxRetries ? (
                      <Badge size="sm" color="red" variant="light">
                        {c.maxRetries === 1 ? 'yes' : `${c.maxRetries} times`}
                      </Badge>
                    ) : (
                      'no'
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Time iso={c.lastAt} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        ) : (
          <Text size="sm" c="dimmed">
            No consent had a failed delivery in this period.
          </Text>
        )}
      </Panel>
    </Stack>
  );
}
