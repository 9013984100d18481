import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { SOLO_HAS_NO_USERS } from '../../electron/core/people/handlers.js';
import { CoreError } from '../../electron/ipc/router.js';
import type { Caller, NewUserInput, Role, User, UserChange, UsersList } from '../../shared/ipc/contract.js';
import { memoryClient, renderRoute } from './harness.js';

/**
 * The Users screen (issue 20): an admin lists the team's people, adds one (the form checks what it
 * can, the server's refusals are shown in it), changes a role and disables someone, each confirmed;
 * anyone else finds the screen with the reason it is not theirs; a solo console says it has no users.
 */
const person = (role: Role, displayName = `Pat ${role}`): Caller => ({ userId: `u-${role}`, displayName, role, method: 'password' });

const user = (name: string, change: Partial<User> = {}): User => ({
  id: `id-${name}`,
  name,
  displayName: `${name[0]!.toUpperCase()}${name.slice(1)} Person`,
  role: 'viewer',
  method: 'password',
  disabled: false,
  lockedUntil: null,
  lastSignInAt: null,
  createdAt: '2026-10-01T00:00:00.000Z',
  sessions: 0,
  ...change,
});

/** A team's people in memory, answering as the people service does (its refusals in its words). */
function team() {
  const users: User[] = [
    user('alice', { id: 'u-admin', displayName: 'Alice Admin', role: 'admin', lastSignInAt: '2026-11-20T09:30:00.000Z', sessions: 2 }),
    user('bob', { displayName: 'Bob Viewer', sessions: 1 }),
    user('cleo', {
      displayName: 'Cleo Compliance',
      role: 'compliance',
      lockedUntil: '2099-01-01T10:45:00.000Z',
      locks: [{ address: '203.0.113.9', until: '2099-01-01T10:45:00.000Z' }],
    }),
    user('dora', { displayName: 'Dora SSO', role: 'support', method: 'oidc', disabled: true, lastSignInAt: '2026-11-02T08:00:00.000Z' }),
  ];
  const added: NewUserInput[] = [];
  const changes: UserChange[] = [];
  const handlers = {
    'users:list': async (): Promise<UsersList> => ({
      available: true,
      reason: null,
      users: structuredClone(users),
      rules: { passwordMin: 12, lockAfter: 5, lockMinutes: 15, lockFirstMinutes: 1 },
    }),
    'users:add': async (input: NewUserInput): Promise<User> => {
      added.push(input);
      if (users.some((u) => u.name === input.name)) throw new CoreError('INVALID_INPUT', `A user named ${input.name} already exists.`);
      const u = user(input.name, {
        displayName: input.displayName,
        role: input.role,
        method: input.password === null ? 'oidc' : 'password',
      });
      users.push(u);
      return u;
    },
    'users:update': async (change: UserChange): Promise<User> => {
      changes.push(change);
      const u = users.find((x) => x.id === change.id)!;
      if (u.role === 'admin' && (change.role !== undefined || change.disabled) && users.filter((x) => x.role === 'admin').length === 1)
        throw new CoreError(
          'INVALID_INPUT',
          `${u.name} cannot stop being an admin: the team needs at least one admin who can sign in. Make someone else an admin first.`,
        );
      Object.assign(u, change.role ? { role: change.role } : {}, change.disabled !== undefined ? { disabled: change.disabled } : {});
      if (change.role || change.disabled) u.sessions = 0;
      if (change.unlock) Object.assign(u, { lockedUntil: null, locks: [] });
      return structuredClone(u);
    },
  };
  return { users, added, changes, handlers };
}

const row = (name: string) => screen.getByTestId(`user-${name}`);

describe('an admin', () => {
  it('sees every user: role, how they sign in, their state, last sign-in and sessions', async () => {
    const t = team();
    const { client } = memoryClient(1, t.handlers, { user: person('admin', 'Alice Admin') });
    renderRoute('/users', client);
    expect(await screen.findByRole('heading', { name: 'Users' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Users' });
    expect(within(table).getAllByRole('row')).toHaveLength(5);
    expect(row('alice')).toHaveTextContent('Alice Admin (you)');
    expect(within(row('alice')).getByRole('combobox', { name: 'Role of alice' })).toHaveValue('Admin');
    expect(row('alice')).toHaveTextContent('Password');
    expect(row('alice')).toHaveTextContent('active');
    expect(row('alice')).toHaveTextContent('20 Nov 2026');
    expect(row('bob')).toHaveTextContent('never');
    expect(row('cleo')).toHaveTextContent(/locked until \d\d:\d\d/);
    expect(
      within(row('cleo')).getByTitle(/^Too many wrong passwords from 203\.0\.113\.9 until \d\d:\d\d: .* elsewhere it is not\.$/),
    ).toHaveTextContent(/^locked until/);
    expect(row('dora')).toHaveTextContent('Single sign-on');
    expect(row('dora')).toHaveTextContent('disabled');
    expect(within(row('dora')).getByRole('button', { name: 'Enable dora' })).toBeEnabled();
    // Single sign-on: the role comes from her groups at every sign-in, and it says so.
    expect(within(row('dora')).getByRole('combobox', { name: 'Role of dora' })).toBeDisabled();
    expect(row('dora')).toHaveTextContent('from their groups');
    expect(screen.getByLabelText(/^Role of dora — unavailable: Single sign-on sets this role from their groups/)).toBeInTheDocument();
    // Single sign-on: no password to reset, and it says so.
    expect(within(row('dora')).getByRole('button', { name: 'Reset the password of dora' })).toBeDisabled();
    expect(
      screen.getByLabelText(
        'Reset the password of dora — unavailable: Dora SSO signs in with single sign-on: the server keeps no password for them.',
      ),
    ).toBeInTheDocument();
    expect(
      screen.getByText(
        /Passwords: at least 12 characters.*After 5 wrong passwords in a row from one address, sign-in from there is refused for 1 minute, then twice as long each time, up to 15 minutes; other addresses are not locked out\./,
      ),
    ).toBeInTheDocument();
  });

  it('lifts a lock: the admin sees where from, one click, the row says active again', async () => {
    const t = team();
    const { client } = memoryClient(1, t.handlers, { user: person('admin') });
    renderRoute('/users', client);
    await screen.findByRole('table', { name: 'Users' });
    expect(within(row('alice')).queryByRole('button', { name: 'Lift the lock of alice' })).not.toBeInTheDocument();
    await userEvent.click(within(row('cleo')).getByRole('button', { name: 'Lift the lock of cleo' }));
    expect(t.changes).toEqual([{ id: 'id-cleo', unlock: true }]);
    await waitFor(() => expect(row('cleo')).toHaveTextContent('active'));
    expect(within(row('cleo')).queryByRole('button', { name: 'Lift the lock of cleo' })).not.toBeInTheDocument();
  });

  it('adds a user: the form checks what it can, shows the server’s refusal, and the new user appears', async () => {
    const t = team();
    const { client } = memoryClient(1, t.handlers, { user: person('admin') });
    renderRoute('/users', client);
    await userEvent.click(await screen.findByRole('button', { name: 'Add user' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a user' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add user' }));
    expect(within(dialog).getByText('A user name is needed: the name they sign in with.')).toBeInTheDocument();
    expect(within(dialog).getByText('A display name has 2 to 80 characters.')).toBeInTheDocument();
    expect(within(dialog).getByText('At least 12 characters (this one has 0).')).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText(/^User name/), 'cleo');
    await userEvent.type(within(dialog).getByLabelText(/^Display name/), 'Cleo Again');
    await userEvent.type(within(dialog).getByLabelText(/^Password/), 'a long password');
    await userEvent.type(within(dialog).getByLabelText(/^Confirm password/), 'a long passw0rd');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add user' }));
    expect(within(dialog).getByText('The two passwords differ.')).toBeInTheDocument();
    expect(t.added).toEqual([]);
    await userEvent.clear(within(dialog).getByLabelText(/^Confirm password/));
    await userEvent.type(within(dialog).getByLabelText(/^Confirm password/), 'a long password');
    await userEvent.click(within(dialog).getByLabelText(/^Role/));
    await userEvent.click(await screen.findByRole('option', { name: /^Support/ }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add user' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The user was not addedA user named cleo already exists.');
    expect(t.added).toEqual([{ name: 'cleo', displayName: 'Cleo Again', role: 'support', password: 'a long password' }]);
    // Single sign-on: no password asked.
    await userEvent.clear(within(dialog).getByLabelText(/^User name/));
    await userEvent.type(within(dialog).getByLabelText(/^User name/), 'erin');
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Single sign-on' }));
    expect(within(dialog).queryByLabelText(/^Password/)).not.toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add user' }));
    expect(await screen.findByText('User added')).toBeInTheDocument();
    expect(t.added[1]).toEqual({ name: 'erin', displayName: 'Cleo Again', role: 'support', password: null });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add a user' })).not.toBeInTheDocument());
    expect(await screen.findByTestId('user-erin')).toHaveTextContent('Single sign-on');
  });

  it('changes a role after confirming, and is told when the server refuses (the last admin)', async () => {
    const t = team();
    const { client } = memoryClient(1, t.handlers, { user: person('admin') });
    renderRoute('/users', client);
    await screen.findByTestId('user-bob');
    await userEvent.click(within(row('bob')).getByRole('combobox', { name: 'Role of bob' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Support' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change the role' });
    expect(dialog).toHaveTextContent('Bob Viewer becomes support (was viewer). Their sessions end');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Change role' }));
    expect(await screen.findByText('Role changed')).toBeInTheDocument();
    expect(t.changes).toEqual([{ id: 'id-bob', role: 'support' }]);
    await waitFor(() => expect(within(row('bob')).getByRole('combobox', { name: 'Role of bob' })).toHaveValue('Support'));

    await userEvent.click(within(row('alice')).getByRole('combobox', { name: 'Role of alice' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Viewer' }));
    const again = await screen.findByRole('dialog', { name: 'Change the role' });
    expect(again).toHaveTextContent('That is you: this console signs you out.');
    await userEvent.click(within(again).getByRole('button', { name: 'Change role' }));
    expect(await within(again).findByRole('alert')).toHaveTextContent('the team needs at least one admin who can sign in');
    expect(within(row('alice')).getByRole('combobox', { name: 'Role of alice' })).toHaveValue('Admin');
  });

  it('disables a user after confirming, then may enable them again', async () => {
    const t = team();
    const { client } = memoryClient(1, t.handlers, { user: person('admin') });
    renderRoute('/users', client);
    await screen.findByTestId('user-bob');
    await userEvent.click(within(row('bob')).getByRole('button', { name: 'Disable bob' }));
    const dialog = await screen.findByRole('dialog', { name: 'Disable Bob Viewer?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Disable' }));
    expect(await screen.findByText('User disabled')).toBeInTheDocument();
    expect(t.changes).toEqual([{ id: 'id-bob', disabled: true }]);
    await userEvent.click(await within(row('bob')).findByRole('button', { name: 'Enable bob' }));
    expect(await screen.findByText('User enabled')).toBeInTheDocument();
    expect(t.changes[1]).toEqual({ id: 'id-bob', disabled: false });
    expect(await within(row('bob')).findByRole('button', { name: 'Disable bob' })).toBeEnabled();
  });

  it('resets a password with the rules checked before it is sent', async () => {
    const t = team();
    const { client } = memoryClient(1, t.handlers, { user: person('admin') });
    renderRoute('/users', client);
    await screen.findByTestId('user-bob');
    await userEvent.click(within(row('bob')).getByRole('button', { name: 'Reset the password of bob' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset the password of Bob Viewer' });
    await userEvent.type(within(dialog).getByLabelText(/^New password/), 'short');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reset password' }));
    expect(within(dialog).getByText('At least 12 characters (this one has 5).')).toBeInTheDocument();
    await userEvent.clear(within(dialog).getByLabelText(/^New password/));
    await userEvent.type(within(dialog).getByLabelText(/^New password/), 'a new long password');
    await userEvent.type(within(dialog).getByLabelText(/^Confirm new password/), 'a new long password');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reset password' }));
    expect(await screen.findByText('Password reset')).toBeInTheDocument();
    expect(t.changes).toEqual([{ id: 'id-bob', password: 'a new long password' }]);
  });
});

describe('anyone else', () => {
  it('a viewer finds the screen, with Add user disabled and the reason, and the list is not asked for', async () => {
    const t = team();
    const { client, calls } = memoryClient(1, t.handlers, { user: person('viewer') });
    renderRoute('/users', client);
    expect(await screen.findByTestId('users-unavailable')).toHaveTextContent('Managing users needs the admin role; you are a viewer.');
    expect(screen.getByRole('button', { name: 'Add user' })).toBeDisabled();
    expect(screen.getByLabelText('Add user — unavailable: Managing users needs the admin role; you are a viewer.')).toBeInTheDocument();
    expect(calls.some((c) => c.channel === 'users:list')).toBe(false);
  });

  it('a solo console says there are no users to manage, and why', async () => {
    const { client } = memoryClient(1, {
      'users:list': async () => ({ available: false, reason: SOLO_HAS_NO_USERS, users: [], rules: null }),
    });
    renderRoute('/users', client);
    expect(await screen.findByTestId('users-unavailable')).toHaveTextContent(SOLO_HAS_NO_USERS);
    expect(screen.getByRole('button', { name: 'Add user' })).toBeDisabled();
    expect(screen.queryByRole('table', { name: 'Users' })).not.toBeInTheDocument();
  });
});
