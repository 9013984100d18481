import { Badge, Button, Group, NumberInput, Pagination, Progress, Stack, Table, Text } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { Job } from '../../../../shared/ipc/contract.js';
import { useClient } from '../../bridge/ClientContext.js';
import { useCan } from '../../features/status/can.js';
import { ExportMenu } from '../export.js';
import { Unavailable } from '../Unavailable.js';
import { enumText, formatCount } from '../format.js';
import { Time } from '../Time.js';
import { isEnded } from './jobs-store.js';
import { ink } from '../ink.js';
import { TableHead } from '../TableHead.js';

/**
 * One job as it runs: a progress bar, its counts, pause / resume / cancel, the rate (for
 * rate-limited work), and — for a bulk revocation — every item's outcome, a page at a time, with
 * an export of the results.
 */
const STATE_COLOUR: Record<Job['state'], string> = {
  'awaiting-approval': 'violet',
  running: 'blue',
  paused: 'yellow',
  interrupted: 'orange',
  cancelled: 'gray',
  finished: 'teal',
  failed: 'red',
};
const OUTCOME_COLOUR: Record<string, string> = { revoked: 'teal', 'already-inactive': 'orange', failed: 'red', pending: 'gray' };
const PAGE = 100;

export function JobProgress({ job, withItems = false }: { job: Job; withItems?: boolean }) {
  const client = useClient();
  const control = useMutation({
    mutationFn: (input: { action: 'pause' | 'resume' | 'cancel' | 'rate'; perSecond?: number }) =>
      client.jobsControl({ jobId: job.jobId, ...input }),
  });
  const [rate, setRate] = useState<number | string>(job.perSecond ?? 5);
  // Pausing, resuming, cancelling and the rate: staff's (a viewer follows the job, with why not).
  const can = useCan('jobs:control');
  const controlButton = (label: string, action: 'pause' | 'resume' | 'cancel', props: { variant?: string; color?: string } = {}) => (
    <Unavailable label={label} reason={can.reason}>
      <Button size="xs" {...props} disabled={!can.allowed} onClick={() => control.mutate({ action })}>
        {label}
      </Button>
    </Unavailable>
  );
  // A bulk revocation held for a second person (a team server): support's and admin's to decide.
  const canDecide = useCan('bulk:decide');
  const decide = useMutation({
    mutationFn: (decision: 'approve' | 'reject') => client.bulkDecide({ jobId: job.jobId, decision }),
  });
  const awaiting = job.state === 'awaiting-approval';
  const ended = isEnded(job);
  const percent = job.total ? Math.round((job.done / job.total) * 100) : ended ? 100 : 0;
  return (
    <Stack gap="xs">
      <Group justify="space-between" wrap="nowrap">
        <Text fw={600} size="sm">
          {job.title}
        </Text>
        <Badge color={STATE_COLOUR[job.state]} variant="light">
          {awaiting ? 'awaiting approval' : job.state}
        </Badge>
      </Group>
      <Progress
        value={percent}
        animated={job.state === 'running'}
        color={STATE_COLOUR[job.state]}
        aria-label={`${job.title}: ${percent}% done`}
      />
      <Group gap="md" fz="sm" role="status" aria-live="polite">
        <Text size="sm">
          {formatCount(job.done)}
          {job.total !== null ? ` of ${formatCount(job.total)}` : ''} done
        </Text>
        {Object.entries(job.counts)
          .filter(([, n]) => n > 0)
          .map(([k, n]) => (
            <Text size="sm" key={k} c={ink(OUTCOME_COLOUR[k] ?? 'gray')}>
              {enumText(k)}: {formatCount(n)}
            </Text>
          ))}
      </Group>
      {job.message ? (
        <Text size="sm" c={job.state === 'failed' ? ink('red') : 'dimmed'}>
          {job.message}
        </Text>
      ) : null}
      {awaiting ? (
        <Group gap="xs">
          <Unavailable label="Approve" reason={canDecide.reason}>
            <Button size="xs" color="red" disabled={!canDecide.allowed || decide.isPending} onClick={() => decide.mutate('approve')}>
              Approve
            </Button>
          </Unavailable>
          <Unavailable label="Reject" reason={canDecide.reason}>
            <Button size="xs" variant="default" disabled={!canDecide.allowed || decide.isPending} onClick={() => decide.mutate('reject')}>
              Reject
            </Button>
          </Unavailable>
        </Group>
      ) : null}
      {decide.error ? (
        <Text size="sm" c={ink('red')} role="alert">
          {decide.error.message}
        </Text>
      ) : null}
      <Group gap="xs">
        {job.state === 'running' && job.kind === 'bulk-revoke' ? controlButton('Pause', 'pause', { variant: 'default' }) : null}
        {job.state === 'paused' || job.state === 'interrupted' ? controlButton('Resume', 'resume') : null}
        {!ended && !awaiting ? controlButton('Cancel', 'cancel', { variant: 'default', color: 'red' }) : null}
        {job.kind === 'bulk-revoke' && !ended && !awaiting ? (
          <Group gap={4} align="flex-end">
            <NumberInput
              size="xs"
              w={110}
              label="Per second"
              min={0.1}
              max={50}
              step={1}
              decimalScale={1}
              value={rate}
              onChange={setRate}
            />
            <Unavailable label="Set rate" reason={can.reason}>
              <Button
                size="xs"
                variant="default"
                disabled={!can.allowed}
                onClick={() => control.mutate({ action: 'rate', perSecond: Number(rate) })}
              >
                Set rate
              </Button>
            </Unavailable>
          </Group>
        ) : null}
        {job.kind === 'bulk-revoke' && ended ? (
          <ExportMenu
            label="Export the results"
            channel="jobs:export"
            start={(format) => client.jobsExport({ jobId: job.jobId, format })}
          />
        ) : null}
      </Group>
      {control.error ? (
        <Text size="sm" c={ink('red')} role="alert">
          {control.error.message}
        </Text>
      ) : null}
      <Text size="xs" c="dimmed">
        Started <Time iso={job.startedAt} seconds />
        {job.finishedAt ? (
          <>
            , ended <Time iso={job.finishedAt} seconds />
          </>
        ) : null}
      </Text>
      {withItems && job.kind === 'bulk-revoke' ? <JobItems job={job} /> : null}
    </Stack>
  );
}

function JobItems({ job }: { job: Job }) {
  const client = useClient();
  const [page, setPage] = useState(1);
  const items = useQuery({
    queryKey: ['jobs:items', job.jobId, page, job.done, job.state],
    queryFn: () => client.jobsItems({ jobId: job.jobId, offset: (page - 1) * PAGE, limit: PAGE }),
    placeholderData: (previous) => previous,
  });
  const total = items.data?.total ?? 0;
  return (
    <Stack gap={6}>
      <Table fz="xs" striped withTableBorder aria-label="Results, consent by consent" stickyHeader>
        <TableHead columns={[['#', 50], 'Consent id', ['Outcome', 130], 'Detail']} />
        <Table.Tbody>
          {(items.data?.items ?? []).map((i) => (
            <Table.Tr key={i.seq}>
              <Table.Td>{i.seq}</Table.Td>
              <Table.Td ff="monospace">{i.consentId}</Table.Td>
              <Table.Td>
                <Badge size="xs" variant="light" color={OUTCOME_COLOUR[i.status] ?? 'gray'}>
                  {i.status}
                </Badge>
              </Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{i.detail ?? ''}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {total > PAGE ? (
        <Pagination
          size="xs"
          total={Math.ceil(total / PAGE)}
          value={page}
          onChange={setPage}
          aria-label="Result pages"
          getItemProps={(p) => ({ 'aria-label': `Results page ${p}` })}
          getControlProps={(c) => ({ 'aria-label': `${c} results page` })}
        />
      ) : null}
    </Stack>
  );
}
