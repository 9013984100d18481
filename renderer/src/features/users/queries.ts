import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { notifications } from '@mantine/notifications';
import type { NewUserInput, User, UserChange } from '../../../../shared/ipc/contract.js';
import { useClient } from '../../bridge/ClientContext.js';

/**
 * The Users screen's reads and changes (users:list, users:add, users:update). The list is read only
 * when the signed-in person may (`enabled`): a viewer is told why instead of being refused. Every
 * change reads the list again (it ends sessions, so their counts change too) and says what it did.
 */
export const USERS_KEY = ['users:list'] as const;

export function useUsers(enabled: boolean) {
  const client = useClient();
  return useQuery({ queryKey: USERS_KEY, queryFn: () => client.usersList({}), enabled });
}

export function useAddUser(onDone: (user: User) => void) {
  const client = useClient();
  const queries = useQueryClient();
  return useMutation({
    mutationFn: (input: NewUserInput) => client.usersAdd(input),
    onSuccess: (user) => {
      void queries.invalidateQueries({ queryKey: USERS_KEY });
      notifications.show({
        color: 'teal',
        title: 'User added',
        message: `${user.displayName} (${user.name}) can sign in as ${user.role}${user.method === 'oidc' ? ' with single sign-on' : ''}.`,
      });
      onDone(user);
    },
  });
}

/** A change to one user; `said` turns the user it answers with into the notification's message. */
export function useUpdateUser(onDone?: () => void) {
  const client = useClient();
  const queries = useQueryClient();
  return useMutation({
    mutationFn: ({ change }: { change: UserChange; title: string; said: (user: User) => string }) => client.usersUpdate(change),
    onSuccess: (user, { title, said }) => {
      void queries.invalidateQueries({ queryKey: USERS_KEY });
      notifications.show({ color: 'teal', title, message: said(user) });
      onDone?.();
    },
  });
}
