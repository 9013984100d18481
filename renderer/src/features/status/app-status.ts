import { useQuery } from '@tanstack/react-query';
import { useClient } from '../../bridge/ClientContext.js';
import type { ConnectionState } from '../../bridge/transport.js';
import { useSession } from '../../stores/session.js';
import { formatAgo } from '../../ui/format.js';

/** The app's status (profile, environment, last sync, online), shared by every reader. */
export function useAppStatus() {
  const client = useClient();
  return useQuery({ queryKey: ['app:status'], queryFn: () => client.appStatus({}), refetchInterval: 30_000 });
}

/**
 * Whether actions that call the intermediary can run now, and if not, why — in words for the
 * disabled button's tooltip. Reads stay available offline; actions are refused, never queued.
 */
export function useActionsAvailable(): { available: boolean; reason: string | null } {
  return actionsAvailable(
    useSession((s) => s.connection),
    useAppStatus().data,
  );
}

/** useActionsAvailable's answer from the connection and the status (useCan reads the status once for both). */
export function actionsAvailable(
  connection: ConnectionState,
  status: ReturnType<typeof useAppStatus>['data'],
): { available: boolean; reason: string | null } {
  if (connection !== 'connected') return { available: false, reason: 'The console host is not connected; reconnecting…' };
  if (!status) return { available: false, reason: 'Checking the connection…' };
  if (!status.online)
    return {
      available: false,
      reason: `Offline: the intermediary could not be reached${status.lastSyncAt ? ` (last successful sync ${formatAgo(status.lastSyncAt)})` : ''}. Cached data is shown; actions are refused until it is back — use “Check connection” in the status bar.`,
    };
  return { available: true, reason: null };
}
