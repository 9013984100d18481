import type { QueryClient } from '@tanstack/react-query';
import type { ConsoleClient } from './bridge/client.js';
import { useSession } from './stores/session.js';

/**
 * The one place that listens to main's events (components never subscribe to IPC themselves):
 * cache changes invalidate the queries that read that entity; sync progress goes to the store.
 */
export function bindMainEvents(client: ConsoleClient, queries: QueryClient): () => void {
  const offs = [
    client.on('cache:changed', (change) => {
      void queries.invalidateQueries({ queryKey: [`${change.entity}:list`] });
      void queries.invalidateQueries({ queryKey: ['app:status'] });
    }),
    client.on('sync:progress', (progress) => {
      useSession.getState().setSyncProgress(progress.state === 'running' ? progress : null);
      if (progress.state !== 'running') void queries.invalidateQueries({ queryKey: ['app:status'] });
    }),
    client.onConnectionChange((state) => {
      useSession.getState().setConnection(state);
      if (state === 'connected') void queries.invalidateQueries();
    }),
  ];
  return () => offs.forEach((off) => off());
}
