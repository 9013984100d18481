import { Button, Group, Menu, SegmentedControl, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { addDays, addMonths, addQuarters, format, startOfMonth, startOfQuarter } from 'date-fns';
import { instantsOfDays } from '../../../../shared/time/periods.js';
import { dayText } from '../../ui/days.js';
import { inZone } from '../../../../shared/time/zone.js';
import { Link, useSearchParams } from 'react-router';
import { useClient } from '../../bridge/ClientContext.js';
import { DayRangeInput } from '../../ui/DayRangeInput.js';
import { useExport } from '../../ui/export.js';
import { Unavailable } from '../../ui/Unavailable.js';
import { useCan } from '../status/can.js';
import { FilterRow } from '../../ui/FilterRow.js';
import { formatCount, localZone } from '../../ui/format.js';
import { Panel } from '../../ui/Panel.js';
import { ScreenHeader } from '../../ui/ScreenHeader.js';
import { ErrorState, LoadingState } from '../../ui/states.js';
import { TableHead } from '../../ui/TableHead.js';
import { Time } from '../../ui/Time.js';
import { eventsLink } from '../events/index.js';
import { CountsTable } from './CountsTable.js';
import { MonthlyPack } from './MonthlyPack.js';

/**
 * Compliance reports: for a chosen period (local calendar days), the counts a data recipient needs
 * for its CDR reports and record keeping (rules 9.3 and 9.4) — granted, extended, amended,
 * withdrawn (by staff, or by the consumer or the data holder), expired; collections per data
 * holder; deletions and de-identifications by retention. Each count opens its records; the report
 * exports to CSV and to a printable HTML page.
 */
const day = (d: Date) => format(d, 'yyyy-MM-dd', inZone());

function presets(now: Date) {
  const month = startOfMonth(now, inZone());
  const quarter = startOfQuarter(now, inZone());
  return {
    'last-month': { label: 'Last month', from: day(addMonths(month, -1, inZone())), to: day(addDays(month, -1, inZone())) },
    'this-month': { label: 'This month', from: day(month), to: day(now) },
    'last-quarter': { label: 'Last quarter', from: day(addQuarters(quarter, -1, inZone())), to: day(addDays(quarter, -1, inZone())) },
    'this-quarter': { label: 'This quarter', from: day(quarter), to: day(now) },
  } as const;
}

export function ReportsScreen() {
  const client = useClient();
  const [params, setParams] = useSearchParams();
  const choices = presets(new Date());
  const fromDay = params.get('from') ?? choices['last-month'].from;
  const toDay = params.get('to') ?? choices['last-month'].to;
  // The console's calendar days as instants: [the first day's midnight, the midnight after the last).
  const { from = '', to = '' } = instantsOfDays(fromDay, toDay);
  const report = useQuery({ queryKey: ['reports:compliance', from, to], queryFn: () => client.reportsCompliance({ from, to }) });
  // The file names and heads the period as the screen does: this console's calendar days, in its zone.
  const exportCsv = useExport(() => client.reportsExport({ from, to, format: 'csv', timeZone: localZone() }));
  const exportHtml = useExport(() => client.reportsExport({ from, to, format: 'html', timeZone: localZone() }));
  const canExport = useCan('reports:export');
  const preset = (Object.entries(choices).find(([, p]) => p.from === fromDay && p.to === toDay)?.[0] ?? 'custom') as string;
  const setPeriod = (f: string, t: string) => setParams({ from: f, to: t });
  const linkOf = (records: { screen: 'events'; types: string[] } | { screen: 'audit'; action: string }) =>
    records.screen === 'events'
      ? eventsLink('/events', { types: records.types, from, to })
      : `/audit?${new URLSearchParams({ action: records.action, from, to }).toString()}`;

  return (
    <Stack gap="md" pb="xl">
      <ScreenHeader
        title="Compliance reports"
        description="Counts for the CDR reports and records (rules 9.3 and 9.4), from the cache and the audit log, for the days chosen (local time, both days included)."
        wrap
        actions={
          <Group gap="xs">
            <Button size="xs" variant="default" component={Link} to="/reports/rule94">
              Rule 9.4 reports
            </Button>
            {!canExport.allowed ? (
              <Unavailable label="Export the report" reason={canExport.reason}>
                <Button size="xs" variant="default" disabled>
                  Export
                </Button>
              </Unavailable>
            ) : (
              <Menu position="bottom-end">
                <Menu.Target>
                  <Button size="xs" variant="default" loading={exportCsv.busy || exportHtml.busy}>
                    Export
                  </Button>
                </Menu.Target>
                <Menu.Dropdown>
                  <Menu.Item onClick={() => void exportCsv.run('csv')}>CSV (spreadsheets)</Menu.Item>
                  <Menu.Item onClick={() => void exportHtml.run('csv')}>Printable report (HTML)</Menu.Item>
                </Menu.Dropdown>
              </Menu>
            )}
          </Group>
        }
      />
      <FilterRow>
        <SegmentedControl
          size="xs"
          aria-label="Period"
          value={preset}
          onChange={(v) => {
            const p = choices[v as keyof typeof choices];
            if (p) setPeriod(p.from, p.to);
          }}
          data={[
            ...Object.entries(choices).map(([value, p]) => ({ value, label: p.label })),
            ...(preset === 'custom' ? [{ value: 'custom', label: 'Custom' }] : []),
          ]}
        />
        <DayRangeInput
          w={260}
          clearable={false}
          value={[fromDay, toDay]}
          onChange={([f, t]) => {
            if (f && t) setPeriod(f, t);
          }}
        />
      </FilterRow>
      {report.error ? <ErrorState title="The report could not be made" error={report.error} /> : null}
      {!report.data ? (
        <LoadingState label="Counting…" />
      ) : (
        <>
          <Panel
            title={`Consents, ${dayText(fromDay)} – ${dayText(toDay)}`}
            label="Consents in the period"
            aside={
              <Text size="xs" c="dimmed">
                Made <Time iso={report.data.generatedAt} seconds />
              </Text>
            }
          >
            <CountsTable
              label="Compliance counts"
              columns={['Measure', 'Count', 'Note']}
              rows={report.data.counts.map((c) => ({
                key: c.key,
                label: c.label,
                count: c.count,
                to: linkOf(c.records),
                note: c.note ?? '',
              }))}
              testId={(key) => `report-${key}`}
            />
          </Panel>
          <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
            <Panel title="Data collections per data holder" label="Collections per data holder">
              {report.data.collectionsByHolder.length ? (
                <Table fz="sm" withTableBorder striped aria-label="Collections per data holder">
                  <TableHead columns={['Data holder', ['Collections', 110]]} />
                  <Table.Tbody>
                    {report.data.collectionsByHolder.map((c) => (
                      <Table.Tr key={c.dataHolderName}>
                        <Table.Td>{c.dataHolderName}</Table.Td>
                        <Table.Td>{formatCount(c.count)}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              ) : (
                <Text size="sm" c="dimmed">
                  No data collections in the period.
                </Text>
              )}
            </Panel>
            <Panel title="Deletion and de-identification" label="Retention in the period">
              {report.data.retention.length ? (
                <Table fz="sm" withTableBorder aria-label="Retention in the period">
                  <TableHead columns={['Action', 'Consents', 'Records']} />
                  <Table.Tbody>
                    {report.data.retention.map((r) => (
                      <Table.Tr key={r.action}>
                        <Table.Td>{r.action === 'deleted' ? 'Deleted' : 'De-identified'}</Table.Td>
                        <Table.Td>{formatCount(r.consents)}</Table.Td>
                        <Table.Td>{formatCount(r.records)}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              ) : (
                <Text size="sm" c="dimmed">
                  Retention did not delete or de-identify any consent’s data in the period.
                </Text>
              )}
            </Panel>
            <Panel title="Withdrawn and amended, per member of staff" label="Per member of staff">
              {report.data.byStaff.length ? (
                <Table fz="sm" withTableBorder striped aria-label="Withdrawn and amended per member of staff">
                  <TableHead columns={['Member of staff', ['Withdrawn', 110], ['Amended', 110]]} />
                  <Table.Tbody>
                    {report.data.byStaff.map((p) => (
                      <Table.Tr key={p.operator} data-testid="report-staff-row">
                        <Table.Td>{p.operator}</Table.Td>
                        <Table.Td>{formatCount(p.withdrawn)}</Table.Td>
                        <Table.Td>{formatCount(p.amended)}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              ) : (
                <Text size="sm" c="dimmed">
                  No consent was withdrawn or amended by staff in the period.
                </Text>
              )}
            </Panel>
          </SimpleGrid>
        </>
      )}
      <MonthlyPack />
    </Stack>
  );
}
