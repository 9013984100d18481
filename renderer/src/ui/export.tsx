import { Button, Menu } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { memo, useState } from 'react';
import type { Channel, Job } from '../../../shared/ipc/contract.js';
import { useCan } from '../features/status/can.js';
import { Unavailable } from './Unavailable.js';
import { deliverDownload, isEnded, useJob, useJobsStore } from './jobs/jobs-store.js';
import { formatBytes, formatCount } from './format.js';

/**
 * Starting an export and seeing it through: main writes the file as a job (a save dialog first in
 * the desktop app); when it ends, the browser host's download starts, or the desktop app says where
 * the file went. Failures are said in words. Used by every screen that exports.
 */
export type StartResult = { jobId: string } | { cancelled: true };

export function describeResult(job: Job): string {
  const r = job.result;
  const size = r?.bytes !== undefined ? ` (${formatBytes(r.bytes)})` : '';
  const rows = r?.rows !== undefined ? `${formatCount(r.rows)} rows` : 'The file';
  return r?.path ? `${rows} saved to ${r.path}${size}.` : `${rows} ready${size}; your browser is downloading it.`;
}

/** When the job ends: the download, or where the file went, or why it failed. */
function onEnded(job: Job): void {
  if (job.state === 'finished') {
    deliverDownload(job);
    notifications.show({ color: 'teal', title: `${job.title}: done`, message: describeResult(job) });
  } else if (job.state === 'failed') {
    notifications.show({ color: 'red', title: `${job.title} failed`, message: job.message ?? 'Unknown error', autoClose: false });
  }
}

export function useExport(start: (format: 'csv' | 'json') => Promise<StartResult>) {
  const [jobId, setJobId] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const job = useJob(jobId);
  // Follow the job in the store (its events arrive there), until it ends.
  const follow = (id: string) => {
    const check = (j: Job | undefined) => {
      if (!j || !isEnded(j)) return false;
      unsubscribe();
      setJobId(null);
      onEnded(j);
      return true;
    };
    const unsubscribe = useJobsStore.subscribe((s) => void check(s.jobs[id]));
    check(useJobsStore.getState().jobs[id]);
  };
  const run = async (format: 'csv' | 'json') => {
    setStarting(true);
    try {
      const r = await start(format);
      if ('jobId' in r) {
        setJobId(r.jobId);
        follow(r.jobId);
      }
    } catch (error) {
      notifications.show({ color: 'red', title: 'The export did not start', message: (error as Error).message, autoClose: false });
    } finally {
      setStarting(false);
    }
  };
  return { run, busy: starting || (job !== undefined && !isEnded(job)), job };
}

/**
 * The export of a view. `channel`: the one `start` calls, whose roles say who may export (disabled, with why, for the others).
 * Memoised: with a stable `start`, a screen's redraw (a keystroke of a search) leaves the menu alone.
 */
export const ExportMenu = memo(function ExportMenu({
  label,
  channel,
  start,
}: {
  label: string;
  channel: Channel;
  start: (format: 'csv' | 'json') => Promise<StartResult>;
}) {
  const { run, busy, job } = useExport(start);
  const can = useCan(channel);
  if (!can.allowed)
    return (
      <Unavailable label={label} reason={can.reason}>
        <Button size="xs" variant="default" disabled>
          Export
        </Button>
      </Unavailable>
    );
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button size="xs" variant="default" loading={busy} aria-label={label}>
          Export{job?.total ? ` ${Math.round((job.done / Math.max(1, job.total)) * 100)}%` : ''}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{label}</Menu.Label>
        <Menu.Item onClick={() => void run('csv')}>CSV (spreadsheets)</Menu.Item>
        <Menu.Item onClick={() => void run('json')}>JSON</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
});
