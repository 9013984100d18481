import { Anchor, Badge, Button, Chip, Group, Stack, Text, TextInput } from '@mantine/core';
import { format, parse } from 'date-fns';
import { Link, useNavigate } from 'react-router';
import type { EventListRow } from '../../../../shared/ipc/contract.js';
import { visibleText } from '../../../../shared/text/visible.js';
import { useClient } from '../../bridge/ClientContext.js';
import { ChartPanel, PanelBarChart } from '../../ui/ChartPanel.js';
import { CountChip } from '../../ui/CountChip.js';
import { DayRangeInput } from '../../ui/DayRangeInput.js';
import { daysOfPeriod, fillDays, periodOfDays } from '../../ui/days.js';
import { useDebouncedText } from '../../ui/fields.js';
import { FilterRow } from '../../ui/FilterRow.js';
import { formatCount, localZone, plural } from '../../ui/format.js';
import { ListHeader, rangeLine } from '../../ui/ListHeader.js';
import { EmptyState, ErrorState } from '../../ui/states.js';
import { useWindowedList } from '../../ui/table/useWindowedList.js';
import { WindowedTable, type Column } from '../../ui/table/WindowedTable.js';
import { Time } from '../../ui/Time.js';
import { useEventsCount, useEventsDays } from './queries.js';
import { eventFilterOf, useEventView, WEBHOOK_FAILURES } from './view.js';
import { eventSeries, eventTerm } from '../../ui/glossary.js';

/**
 * Every consent event across consents, newest first, one virtualised list read a window at a time
 * (fine at a million events): filter by type, consent and time; per day, the counts of each type;
 * export of the filtered view.
 */
const FAILURES = new Set<string>(WEBHOOK_FAILURES);

const dayStart = (day: string) => parse(day, 'yyyy-MM-dd', new Date());

export const EVENT_COLUMNS: Column<EventListRow>[] = [
  { id: 'timestamp', header: 'Time', width: 180, cell: (e) => <Time iso={e.timestamp} seconds /> },
  {
    id: 'eventType',
    header: 'Event',
    width: 290,
    cell: (e) => (
      <Badge size="sm" variant="light" color={eventTerm(e.eventType).pill} title={e.eventType}>
        {eventTerm(e.eventType).words}
      </Badge>
    ),
  },
  {
    id: 'consent',
    header: 'Consent',
    width: 290,
    cell: (e) => (
      <Anchor component={Link} to={`/consents/${encodeURIComponent(e.consentId)}?tab=timeline`} size="sm" title={e.consentId}>
        {e.consumerEmail ?? e.consentId}
      </Anchor>
    ),
  },
  { id: 'dataHolderName', header: 'Data holder', width: 170, cell: (e) => e.dataHolderName ?? '—' },
  {
    id: 'eventDetail',
    header: 'Detail',
    width: 420,
    cell: (e) =>
      e.eventDetail ? <span title={visibleText(e.eventDetail)}>{visibleText(e.eventDetail)}</span> : <span aria-label="none">—</span>,
  },
];

export function EventsScreen() {
  const client = useClient();
  const navigate = useNavigate();
  const [view, setView] = useEventView();
  const filter = eventFilterOf(view);
  const count = useEventsCount(filter);
  const days = useEventsDays(filter, 30);
  const total = count.data?.total ?? 0;
  const { table } = useWindowedList<EventListRow>({
    key: ['events:list', filter],
    total,
    fetch: async (offset, limit) => (await client.eventsList({ filter, offset, limit })).rows,
    cursorKey: filter,
  });
  const consent = useDebouncedText(view.consentId, (consentId) => setView({ consentId }, { replace: true }), 200);

  const allTypes = [...new Set([...(count.data?.types.map((t) => t.type) ?? []), ...view.types])].sort();
  const countOf = (t: string) => count.data?.types.find((x) => x.type === t)?.count ?? 0;
  const dayRows = days.data?.length ? fillDays(days.data) : []; // quiet days too, oldest first
  const chartTypes = [...new Set(dayRows.flatMap((d) => Object.keys(d.counts)))].sort();
  const chartData = dayRows.map((d) => ({ day: format(dayStart(d.day), 'd MMM'), ...d.counts }));

  return (
    <Stack h="100%" gap="xs">
      <ListHeader
        title="Events"
        range={rangeLine(count, () => `${plural(total, 'event')} ${total === 1 ? 'matches' : 'match'} this view`)}
        rangeId="events-range"
        exportMenu={{
          channel: 'events:export',
          label: `Export all ${formatCount(total)} events of this view`,
          start: (format) => client.eventsExport({ filter, format, timeZone: localZone() }),
        }}
      />
      <FilterRow onClear={view.types.length || view.consentId || view.from || view.to ? () => navigate({ search: '' }) : undefined}>
        <TextInput label="Consent id" size="xs" w={320} {...consent.input} placeholder="All consents" />
        <DayRangeInput w={260} value={daysOfPeriod(view)} onChange={(picked) => setView(periodOfDays(picked))} />
      </FilterRow>
      <Group gap={6} role="group" aria-label="Event types">
        <Chip.Group multiple value={view.types} onChange={(types) => setView({ types })}>
          {allTypes.map((t) => (
            <CountChip
              key={t}
              value={t}
              label={eventTerm(t).words}
              name={t}
              count={countOf(t)}
              noun="events"
              color={FAILURES.has(t) ? 'red' : 'indigo'}
            />
          ))}
        </Chip.Group>
      </Group>
      <ChartPanel
        title="Per day"
        description="The newest 30 days that have events in this view, with the count of each type; pick a day in the table to see only it."
        rows={dayRows}
        columns={[
          {
            key: 'day',
            label: 'Day',
            value: (d) => d.day,
          },
          { key: 'total', label: 'All', value: (d) => d.total },
          ...chartTypes.map((t) => ({ key: t, label: eventTerm(t).words, value: (d: (typeof dayRows)[number]) => d.counts[t] ?? 0 })),
        ]}
        empty="No events in this view."
        chart={
          <PanelBarChart h={160} data={chartData} dataKey="day" type="stacked" withLegend series={chartTypes.map((t) => eventSeries(t))} />
        }
      />
      {dayRows.length ? (
        <Group gap={4} wrap="wrap" aria-label="Show one day">
          <Text size="xs" c="dimmed">
            Show one day:
          </Text>
          {dayRows
            .filter((d) => d.total > 0)
            .slice(-10)
            .map((d) => (
              <Button key={d.day} size="compact-xs" variant="default" onClick={() => setView(periodOfDays([d.day, d.day]))}>
                {format(dayStart(d.day), 'd MMM')} ({formatCount(d.total)})
              </Button>
            ))}
        </Group>
      ) : null}
      {count.error ? <ErrorState title="The events could not be read" error={count.error} /> : null}
      <WindowedTable<EventListRow>
        label="Events"
        {...table}
        columns={EVENT_COLUMNS}
        rowId={(e) => e.eventId}
        rowLabel={(e) => `${eventTerm(e.eventType).words} of ${e.consumerEmail ?? e.consentId}`}
        rowTone={(e) => (FAILURES.has(e.eventType) ? 'danger' : undefined)}
        onOpen={(e) => navigate(`/consents/${encodeURIComponent(e.consentId)}?tab=timeline`)}
        empty={
          count.data ? <EmptyState title="No event matches this view">Change the filters, or sync to fetch new events.</EmptyState> : null
        }
      />
    </Stack>
  );
}
