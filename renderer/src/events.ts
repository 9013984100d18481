import type { QueryClient } from '@tanstack/react-query';
import type { AppStatus, CacheChanged } from '../../shared/ipc/contract.js';
import type { ConsoleClient } from './bridge/client.js';
import { useJobsStore } from './ui/jobs/jobs-store.js';
import { useSession } from './stores/session.js';

/**
 * The one place that listens to main's events (components never subscribe to IPC themselves):
 * cache changes invalidate the queries that read that entity — at most a few times a second, so
 * a sync writing a page every few milliseconds does not make the screen refetch for every page —
 * sync progress goes to the session store, job progress to the jobs store.
 */
const READERS: Record<CacheChanged['entity'], readonly string[]> = {
  consents: ['consents:', 'app:status', 'audit:', 'reports:'],
  // The events feed the webhook triage and the compliance report's counts too.
  events: ['events:', 'webhooks:', 'reports:', 'consents:get'],
  reference: ['reference:', 'consents:get', 'consents:options'],
  data: ['data:', 'products:', 'consents:get'],
  audit: ['audit:', 'consents:get'],
  complaints: ['complaints:'],
  alerts: ['alerts:'],
  rule94: ['biannual:'],
  monthly: ['reports:monthlyPacks'],
};
const THROTTLE_MS = 400;

export function bindMainEvents(client: ConsoleClient, queries: QueryClient): () => void {
  const pending = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    timer = undefined;
    const prefixes = [...pending];
    pending.clear();
    void queries.invalidateQueries({
      predicate: (q) => typeof q.queryKey[0] === 'string' && prefixes.some((p) => (q.queryKey[0] as string).startsWith(p)),
    });
  };
  const offs = [
    client.on('cache:changed', (change) => {
      READERS[change.entity].forEach((p) => pending.add(p));
      timer ??= setTimeout(flush, THROTTLE_MS);
    }),
    client.on('sync:progress', (progress) => {
      // A sync that starts (here, or on another server of a team): the status says where it runs.
      if (progress.state === 'running' && useSession.getState().syncProgress === null)
        void queries.invalidateQueries({ queryKey: ['app:status'] });
      useSession.getState().setSyncProgress(progress.state === 'running' ? progress : null);
      if (progress.state !== 'running') {
        useSession.getState().setLastSyncEnd(progress);
        void queries.invalidateQueries({ queryKey: ['app:status'] });
        // The overview's last-sync panel: without this it said "no sync has finished" until reopened.
        void queries.invalidateQueries({ queryKey: ['sync:last'] });
      }
    }),
    client.on('jobs:progress', (job) => useJobsStore.getState().put(job)),
    // A team server lost its database or reached it again: the status bar says so at once, then reads the rest.
    client.on('team:database', (database) => {
      queries.setQueryData<AppStatus>(['app:status'], (old) => (old?.team ? { ...old, team: { ...old.team, database } } : old));
      void queries.invalidateQueries({ queryKey: ['app:status'] });
    }),
    // The console reopened on another profile (or a new cache): everything on screen is read again.
    client.on('profile:switched', (switched) => {
      useSession.getState().setProfileSwitch(switched);
      void queries.resetQueries();
    }),
    client.onConnectionChange((state) => {
      useSession.getState().setConnection(state);
      if (state === 'connected') {
        void queries.invalidateQueries();
        // A sync that ended while this console was away (its last progress report never came): not shown as running.
        void client.appStatus({}).then(
          (status) => {
            if (!status.syncing && !status.team?.syncingOn && useSession.getState().syncProgress)
              useSession.getState().setSyncProgress(null);
          },
          () => undefined,
        );
        void client.jobsList({}).then(
          (jobs) => useJobsStore.getState().putAll(jobs),
          () => undefined,
        );
      }
    }),
  ];
  return () => {
    if (timer) clearTimeout(timer);
    offs.forEach((off) => off());
  };
}
