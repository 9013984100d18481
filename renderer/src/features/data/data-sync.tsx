import { Button, Paper } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useClient } from '../../bridge/ClientContext.js';
import { useSession } from '../../stores/session.js';
import { formatCount } from '../../ui/format.js';
import { JobProgress } from '../../ui/jobs/JobProgress.js';
import { isEnded, useJob } from '../../ui/jobs/jobs-store.js';
import { EmptyState, ErrorState } from '../../ui/states.js';

/**
 * Syncing Data API records from a screen (Data, a consent's data, Products): the job, its progress,
 * and what an empty screen says before any record is cached.
 */

/** Starts a data sync job and follows it; when it ends, every data query is read again. */
export function useDataSync() {
  const client = useClient();
  const queries = useQueryClient();
  const [jobId, setJobId] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const job = useJob(jobId);
  const ended = isEnded(job);
  useEffect(() => {
    if (ended) void queries.invalidateQueries({ predicate: (q) => /^(data|products):/.test(String(q.queryKey[0])) });
  }, [ended, queries]);
  const start = async (input: { consentIds: string[] } | { allActive: true; full?: true }) => {
    setError(null);
    try {
      setJobId((await client.dataSync(input)).jobId);
    } catch (e) {
      setError(e);
    }
  };
  return { start, job, running: !!job && !ended, error };
}

export function SyncJob({ sync }: { sync: ReturnType<typeof useDataSync> }) {
  return (
    <>
      {sync.error ? <ErrorState title="The data sync did not start" error={sync.error} /> : null}
      {sync.job ? (
        <Paper withBorder p="sm" role="region" aria-label="Data sync">
          <JobProgress job={sync.job} />
        </Paper>
      ) : null}
    </>
  );
}

/**
 * An empty screen before any Data API record is cached: while a sync is fetching them it says so
 * (rows appear as they arrive); otherwise it says where they come from and offers the sync.
 */
export function NoCachedDataYet({
  what,
  sync,
  syncAbove = false,
}: {
  what: string;
  sync: ReturnType<typeof useDataSync>;
  /** The screen's header has the sync button already: point at it rather than repeat it. */
  syncAbove?: boolean;
}) {
  const progress = useSession((s) => s.syncProgress);
  if (sync.running || progress) {
    return (
      <EmptyState title={`No ${what} cached yet`}>
        {progress?.phase === 'data'
          ? `The sync is fetching the Data API records of active consents (${formatCount(progress.done)}${progress.total !== null ? ` of ${formatCount(progress.total)}` : ''}): they show here as they arrive.`
          : 'A sync is running: the Data API records of active consents show here once they are fetched.'}
      </EmptyState>
    );
  }
  return (
    <EmptyState
      title={`No ${what} cached yet`}
      action={
        syncAbove ? undefined : (
          <Button size="xs" onClick={() => void sync.start({ allActive: true })}>
            Sync data of all active consents
          </Button>
        )
      }
    >
      They come with the Data API records of active consents. {syncAbove ? 'Use “Sync data of all active consents” above' : 'Sync them now'}
      , or turn on “Also sync Data API records” in Settings so that every sync brings them.
    </EmptyState>
  );
}
