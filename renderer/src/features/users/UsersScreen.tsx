import { Alert, Badge, Button, Group, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import type { Role, User } from '../../../../shared/ipc/contract.js';
import { ChoiceSelect } from '../../ui/ChoiceSelect.js';
import { formatClock, formatCount } from '../../ui/format.js';
import { signInText } from '../../ui/glossary.js';
import { Panel } from '../../ui/Panel.js';
import { ScreenHeader } from '../../ui/ScreenHeader.js';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states.js';
import { TableHead } from '../../ui/TableHead.js';
import { Time } from '../../ui/Time.js';
import { Unavailable } from '../../ui/Unavailable.js';
import { useAppStatus } from '../status/app-status.js';
import { useCan } from '../status/can.js';
import { useUpdateUser, useUsers } from './queries.js';
import { AddUserDialog, DisableDialog, ResetPasswordDialog, ROLE_NAME, RoleDialog, rulesText } from './UserDialogs.js';

/**
 * The people of a team server (issue 20), for an admin: who may sign in, with which role and how,
 * whether they can now (disabled, locked after wrong passwords), when they last did and how many
 * sessions they hold; adding someone, changing a role, disabling and enabling, resetting a
 * password. Anyone else finds the screen where it always is and is told why it is not theirs; a
 * solo console says that it has no users to manage.
 */
const ROLE_OPTIONS = (Object.keys(ROLE_NAME) as Role[]).map((value) => ({ value, label: ROLE_NAME[value] }));

/** A single sign-on user who has signed in: the provider's groups set their role at every sign-in (issue 35). */
const fromGroups = (u: User) => u.method === 'oidc' && u.lastSignInAt !== null;
const FROM_GROUPS =
  'Single sign-on sets this role from their groups at the identity provider at every sign-in: change their groups there (a role set here would be replaced).';

function UserState({ user }: { user: User }) {
  if (user.disabled)
    return (
      <Badge size="sm" variant="light" color="gray">
        disabled
      </Badge>
    );
  if (user.lockedUntil) {
    const where = user.locks?.length ? user.locks.map((l) => `${l.address} until ${formatClock(l.until)}`).join(', ') : null;
    return (
      <Badge
        size="sm"
        variant="light"
        color="orange"
        title={`Too many wrong passwords${where ? ` from ${where}` : ''}: sign-in from there is refused; elsewhere it is not.`}
      >
        locked{user.locks && user.locks.length > 1 ? ` from ${user.locks.length} places` : ''} until {formatClock(user.lockedUntil)}
      </Badge>
    );
  }
  return (
    <Badge size="sm" variant="light" color="teal">
      active
    </Badge>
  );
}

export function UsersScreen() {
  const can = useCan('users:list');
  const canAdd = useCan('users:add');
  const canUpdate = useCan('users:update');
  const me = useAppStatus().data?.user?.userId ?? null;
  const users = useUsers(can.known && can.allowed);
  const list = users.data;
  const [adding, setAdding] = useState(false);
  const [roleChange, setRoleChange] = useState<{ user: User; role: Role } | null>(null);
  const [disabling, setDisabling] = useState<User | null>(null);
  const [resetting, setResetting] = useState<User | null>(null);
  const enable = useUpdateUser();
  // Refused by role, or nothing to manage (a solo console): the reason, on the screen and on the buttons.
  const reason = can.reason ?? canAdd.reason ?? (list && !list.available ? list.reason : null);

  return (
    <Stack gap="md" pb="xl">
      <ScreenHeader
        title="Users"
        description={
          list && !list.available
            ? 'Who may sign in to a team server, with which role.'
            : 'Who may sign in to this team server, with which role. A change ends the sessions it concerns.'
        }
        actions={
          <Unavailable label="Add user" reason={reason}>
            <Button size="xs" onClick={() => setAdding(true)} disabled={reason !== null || !list}>
              Add user
            </Button>
          </Unavailable>
        }
      />
      {reason ? (
        <Alert
          color="gray"
          title={can.reason || canAdd.reason ? 'Users are managed by an admin' : 'No users to manage here'}
          data-testid="users-unavailable"
        >
          {reason}
        </Alert>
      ) : null}
      {users.error ? <ErrorState title="The users could not be read" error={users.error} onRetry={() => void users.refetch()} /> : null}
      {list?.sso?.state === 'problem' ? (
        <Alert color="orange" title="Single sign-on is not working" role="alert" data-testid="sso-problem">
          {list.sso.problem} (since {formatClock(list.sso.since)}). People sign in with a password meanwhile; the server’s log has the
          details.
        </Alert>
      ) : null}
      {enable.error ? (
        <Alert color="red" title="The user was not enabled" role="alert" withCloseButton onClose={() => enable.reset()}>
          {enable.error.message}
        </Alert>
      ) : null}
      {reason ? null : !list ? (
        users.error ? null : (
          <LoadingState label="Reading the users…" />
        )
      ) : (
        <Panel
          title="People"
          description={`${formatCount(list.users.length)} ${list.users.length === 1 ? 'user' : 'users'}. ${rulesText(list.rules)}`}
        >
          {list.users.length === 0 ? (
            <EmptyState title="Nobody can sign in yet">Add the first admin with Add user.</EmptyState>
          ) : (
            <Table fz="sm" withTableBorder verticalSpacing={6} aria-label="Users">
              <TableHead
                columns={[
                  'Name',
                  'Display name',
                  ['Role', 150],
                  'Signs in with',
                  'State',
                  'Last sign-in',
                  ['Sessions', 90],
                  ['Actions', 230],
                ]}
              />
              <Table.Tbody>
                {list.users.map((u) => (
                  <Table.Tr key={u.id} data-testid={`user-${u.name}`}>
                    <Table.Td>
                      <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                        {u.name}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      {u.displayName}
                      {u.id === me ? (
                        <Text span size="xs" c="dimmed">
                          {' '}
                          (you)
                        </Text>
                      ) : null}
                    </Table.Td>
                    <Table.Td>
                      <Unavailable label={`Role of ${u.name}`} reason={canUpdate.reason ?? (fromGroups(u) ? FROM_GROUPS : null)}>
                        <ChoiceSelect
                          size="xs"
                          aria-label={`Role of ${u.name}`}
                          data={ROLE_OPTIONS}
                          value={u.role}
                          onChange={(role) => role !== u.role && setRoleChange({ user: u, role })}
                          disabled={!canUpdate.allowed || fromGroups(u)}
                          comboboxProps={{ withinPortal: true }}
                        />
                      </Unavailable>
                      {fromGroups(u) ? (
                        <Text size="xs" c="dimmed">
                          from their groups
                        </Text>
                      ) : null}
                    </Table.Td>
                    <Table.Td>{signInText(u.method)}</Table.Td>
                    <Table.Td>
                      <UserState user={u} />
                    </Table.Td>
                    <Table.Td>
                      {u.lastSignInAt ? (
                        <Time iso={u.lastSignInAt} />
                      ) : (
                        <Text span size="sm" c="dimmed">
                          never
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>{formatCount(u.sessions)}</Table.Td>
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        {u.disabled ? (
                          <Unavailable label={`Enable ${u.name}`} reason={canUpdate.reason}>
                            <Button
                              size="compact-xs"
                              variant="default"
                              aria-label={`Enable ${u.name}`}
                              disabled={!canUpdate.allowed}
                              loading={
                                enable.isPending && enable.variables.change.id === u.id && enable.variables.change.disabled === false
                              }
                              onClick={() =>
                                enable.mutate({
                                  change: { id: u.id, disabled: false },
                                  title: 'User enabled',
                                  said: (x) => `${x.displayName} can sign in again.`,
                                })
                              }
                            >
                              Enable
                            </Button>
                          </Unavailable>
                        ) : (
                          <Unavailable label={`Disable ${u.name}`} reason={canUpdate.reason}>
                            <Button
                              size="compact-xs"
                              variant="default"
                              color="red"
                              aria-label={`Disable ${u.name}`}
                              disabled={!canUpdate.allowed}
                              onClick={() => setDisabling(u)}
                            >
                              Disable
                            </Button>
                          </Unavailable>
                        )}
                        {u.lockedUntil ? (
                          <Unavailable label={`Lift the lock of ${u.name}`} reason={canUpdate.reason}>
                            <Button
                              size="compact-xs"
                              variant="default"
                              aria-label={`Lift the lock of ${u.name}`}
                              disabled={!canUpdate.allowed}
                              loading={enable.isPending && enable.variables.change.id === u.id && enable.variables.change.unlock === true}
                              onClick={() =>
                                enable.mutate({
                                  change: { id: u.id, unlock: true },
                                  title: 'Lock lifted',
                                  said: (x) => `${x.displayName} can sign in again from every address.`,
                                })
                              }
                            >
                              Lift lock
                            </Button>
                          </Unavailable>
                        ) : null}
                        <Unavailable
                          label={`Reset the password of ${u.name}`}
                          reason={
                            canUpdate.reason ??
                            (u.method === 'oidc'
                              ? `${u.displayName} signs in with single sign-on: the server keeps no password for them.`
                              : null)
                          }
                        >
                          <Button
                            size="compact-xs"
                            variant="default"
                            aria-label={`Reset the password of ${u.name}`}
                            disabled={!canUpdate.allowed || u.method === 'oidc'}
                            onClick={() => setResetting(u)}
                          >
                            Reset password…
                          </Button>
                        </Unavailable>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Panel>
      )}
      <AddUserDialog opened={adding} onClose={() => setAdding(false)} rules={list?.rules ?? null} />
      <RoleDialog change={roleChange} me={me} onClose={() => setRoleChange(null)} />
      <DisableDialog user={disabling} me={me} onClose={() => setDisabling(null)} />
      <ResetPasswordDialog user={resetting} onClose={() => setResetting(null)} rules={list?.rules ?? null} />
    </Stack>
  );
}
