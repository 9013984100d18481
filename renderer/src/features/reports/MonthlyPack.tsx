import { Button, Group, Switch, Table, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { MonthlyPackRow } from '../../../../shared/ipc/contract.js';
import { useClient } from '../../bridge/ClientContext.js';
import { useExport } from '../../ui/export.js';
import { localZone } from '../../ui/format.js';
import { Panel } from '../../ui/Panel.js';
import { ErrorState } from '../../ui/states.js';
import { TableHead } from '../../ui/TableHead.js';
import { Time } from '../../ui/Time.js';
import { Unavailable } from '../../ui/Unavailable.js';
import { useCan } from '../status/can.js';

const KEY = 'reports:monthlyPacks';

/**
 * The monthly compliance pack (issue 38): scheduled by compliance or an admin, each ended month's
 * figures (this screen's, for the month) are made on the first day after it, in the months of the
 * zone chosen, kept as made, and e-mailed to the alert e-mail's recipients; each pack exports as its
 * printable HTML or its CSV.
 */
export function MonthlyPack() {
  const client = useClient();
  const queries = useQueryClient();
  const packs = useQuery({ queryKey: [KEY], queryFn: () => client.reportsMonthlyPacks({}) });
  const canSchedule = useCan('reports:scheduleMonthlyPack');
  // The switch as asked while the change is stored; then as stored (the answer is the schedule itself).
  const [asked, setAsked] = useState<boolean | null>(null);
  const schedule = useMutation({
    mutationFn: (enabled: boolean) =>
      // Turned on: in this console's zone's months (Settings → Time zone); turned off: the zone kept.
      client.reportsScheduleMonthlyPack({ enabled, timeZone: enabled ? localZone() : (packs.data?.schedule?.timeZone ?? localZone()) }),
    onSuccess: (stored) => {
      queries.setQueryData([KEY], (old: typeof packs.data) => old && { ...old, schedule: stored });
      void queries.invalidateQueries({ queryKey: [KEY] });
    },
    onSettled: () => setAsked(null),
  });
  const s = packs.data?.schedule;
  const on = s?.enabled ?? false;
  return (
    <Panel
      title="Monthly compliance pack"
      description="Last month’s figures as on this screen, made on the first day after each month once the cache has synced since, kept as made and e-mailed to the alert e-mail’s recipients (Settings → Alerts)."
    >
      {packs.error ? <ErrorState title="The monthly packs could not be read" error={packs.error} /> : null}
      <Group gap="sm" mb="xs">
        <Unavailable label="Make a pack each month" reason={canSchedule.reason}>
          <Switch
            label="Make a pack each month"
            checked={asked ?? on}
            disabled={!canSchedule.allowed || !packs.data || schedule.isPending}
            onChange={(e) => {
              const enabled = e.currentTarget.checked;
              setAsked(enabled);
              schedule.mutate(enabled);
            }}
          />
        </Unavailable>
        {s ? (
          <Text size="sm" c="dimmed" data-testid="monthly-schedule">
            {on ? `Months in ${s.timeZone}` : 'Not scheduled'} · {on ? 'turned on' : 'turned off'} by {s.changedBy},{' '}
            <Time iso={s.changedAt} />
          </Text>
        ) : null}
        {schedule.error ? (
          <Text size="sm" c="red">
            {schedule.error.message}
          </Text>
        ) : null}
      </Group>
      {packs.data?.packs.length ? (
        <Table fz="sm" withTableBorder aria-label="Monthly compliance packs">
          <TableHead columns={['Month', 'Made', 'E-mail', 'SHA-256 of the HTML', 'Files']} />
          <Table.Tbody>
            {packs.data.packs.map((p) => (
              <PackRow key={p.period} pack={p} />
            ))}
          </Table.Tbody>
        </Table>
      ) : packs.data ? (
        <Text size="sm" c="dimmed">
          No pack made yet{on ? ': the first is made once a month has ended and the cache has synced since.' : '.'}
        </Text>
      ) : null}
    </Panel>
  );
}

function PackRow({ pack: p }: { pack: MonthlyPackRow }) {
  const client = useClient();
  const canExport = useCan('reports:exportMonthlyPack');
  const html = useExport(() => client.reportsExportMonthlyPack({ period: p.period, format: 'html' }));
  const csv = useExport(() => client.reportsExportMonthlyPack({ period: p.period, format: 'csv' }));
  return (
    <Table.Tr>
      <Table.Td>
        {p.text}{' '}
        <Text span size="xs" c="dimmed">
          ({p.timeZone})
        </Text>
      </Table.Td>
      <Table.Td>
        <Time iso={p.madeAt} /> by {p.madeBy}
      </Table.Td>
      <Table.Td>{p.sent ?? 'Not sent (no e-mail set up)'}</Table.Td>
      <Table.Td>
        <Text span size="xs" ff="monospace" title={p.sha256}>
          {p.sha256.slice(0, 16)}…
        </Text>
      </Table.Td>
      <Table.Td>
        <Unavailable label={`Export the pack for ${p.text}`} reason={canExport.reason}>
          <Group gap={4} wrap="nowrap">
            {[
              { label: 'HTML', name: 'as a printable page (HTML)', file: html },
              { label: 'CSV', name: 'as CSV', file: csv },
            ].map(({ label, name, file }) => (
              <Button
                key={label}
                size="compact-xs"
                variant="default"
                disabled={!canExport.allowed}
                loading={file.busy}
                onClick={() => void file.run('csv')}
                aria-label={`The pack for ${p.text} ${name}`}
              >
                {label}
              </Button>
            ))}
          </Group>
        </Unavailable>
      </Table.Td>
    </Table.Tr>
  );
}
