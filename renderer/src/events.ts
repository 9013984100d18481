import type { QueryClient } from '@tanstack/react-query';
import type { AppStatus, CacheChanged, ChannelSchema } from '../../shared/ipc/contract.js';
import type { ConsoleClient } from './bridge/client.js';
import { useJobsStore } from './ui/jobs/jobs-store.js';
import { useSession } from './stores/session.js';

/**
 * The one place that listens to main's events (components never subscribe to IPC themselves):
 * cache changes invalidate the queries that read that entity — at most a few times a second, so
 * a sync writing a page every few milliseconds does not make the screen refetch for every page —
 * sync progress goes to the session store, job progress to the jobs store.
 *
 * Which queries read an entity is the contract's word (each read channel's `reads`), and a query's
 * key starts with its channel (test/unit/query-keys.test.ts holds the screens to both). The contract
 * (its zod schemas, 116 kB) is loaded at the first change, not with the console (features/status/can.ts).
 */
type Readers = ReadonlyMap<CacheChanged['entity'], ReadonlySet<string>>;
let readers: Promise<Readers | null> | undefined;
/** Each entity's reading channels, from the contract; null when it could not be loaded (every query is read again then). */
const loadReaders = () =>
  (readers ??= import('../../shared/ipc/contract.js').then(
    ({ CACHE_ENTITIES, CHANNELS, contract }) =>
      new Map(
        CACHE_ENTITIES.map((entity) => [
          entity,
          new Set<string>(CHANNELS.filter((c) => (contract[c] as ChannelSchema).reads?.includes(entity))),
        ]),
      ),
    () => null,
  ));
const THROTTLE_MS = 400;

export function bindMainEvents(client: ConsoleClient, queries: QueryClient): () => void {
  const pending = new Set<CacheChanged['entity']>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = async () => {
    const known = await loadReaders();
    if (!known) readers = undefined; // tried again at the next change
    timer = undefined;
    const channels = new Set([...pending].flatMap((entity) => [...(known?.get(entity) ?? [])]));
    pending.clear();
    void queries.invalidateQueries(
      known ? { predicate: (q) => typeof q.queryKey[0] === 'string' && channels.has(q.queryKey[0]) } : undefined,
    );
  };
  let connectedBefore = false;
  const loadJobs = () =>
    void client.jobsList({}).then(
      (jobs) => useJobsStore.getState().putAll(jobs),
      () => undefined,
    );
  const offs = [
    client.on('cache:changed', (change) => {
      pending.add(change.entity);
      timer ??= setTimeout(() => void flush(), THROTTLE_MS);
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
      if (state !== 'connected') return;
      // The first connection: the screens ask what they show themselves (and the first reads are
      // already on their way, app/first-reads.ts); only the jobs list has no screen of its own.
      // Asking the status or reading everything again here raced the first reads (and sent them twice).
      if (!connectedBefore) {
        connectedBefore = true;
        loadJobs();
        return;
      }
      // Connected again after a break: what changed meanwhile was never announced to this console.
      void queries.invalidateQueries();
      // A sync that ended while this console was away (its last progress report never came): not shown as running.
      void client.appStatus({}).then(
        (status) => {
          if (!status.syncing && !status.team?.syncingOn && useSession.getState().syncProgress) useSession.getState().setSyncProgress(null);
        },
        () => undefined,
      );
      loadJobs();
    }),
  ];
  return () => {
    if (timer) clearTimeout(timer);
    offs.forEach((off) => off());
  };
}
