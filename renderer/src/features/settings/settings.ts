import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Settings } from '../../../../shared/ipc/contract.js';
import { useClient } from '../../bridge/ClientContext.js';

/** The user's preferences, kept by main across restarts (theme, default columns, saved views). */
export function useSettings() {
  const client = useClient();
  return useQuery({ queryKey: ['settings:get'], queryFn: () => client.settingsGet({}), staleTime: Infinity });
}

export function useSaveSettings() {
  const client = useClient();
  const queries = useQueryClient();
  return useMutation({
    mutationFn: (change: Partial<Settings>) => client.settingsSet(change),
    onSuccess: (settings) => queries.setQueryData(['settings:get'], settings),
  });
}
