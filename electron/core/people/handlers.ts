import type { User, UsersList } from '../../../shared/ipc/contract.js';
import { roleRefusal } from '../../../shared/ipc/contract.js';
import { currentRequest } from '../../ipc/request-context.js';
import { SESSION_OVER } from '../../ipc/router.js';
import { CoreError } from '../errors.js';
import type { HandlersOf } from '../context.js';
import { PASSWORD_MIN } from './password.js';
import type { People } from './people.js';
import { UserExistsError, type UserRecord } from './port.js';

/** The Users screen's channels: a team server's people (people.ts); a solo console has none to manage. */
export const SOLO_HAS_NO_USERS =
  'A solo console has one person, the account it runs under: users are managed on a team server (npm run team), where people sign in.';

export function userHandlers(ctx: { people?: People; operator: () => string }): HandlersOf<'users:list' | 'users:add' | 'users:update'> {
  const people = () => {
    if (!ctx.people) throw new CoreError('FORBIDDEN', SOLO_HAS_NO_USERS);
    return ctx.people;
  };
  /** The person's own mistakes are theirs to fix (INVALID_INPUT), in the words people.ts chose. */
  const asked = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (error) {
      if (error instanceof RangeError || error instanceof UserExistsError) throw new CoreError('INVALID_INPUT', error.message);
      throw error;
    }
  };
  const withSessions = async (u: UserRecord): Promise<User> => {
    const all = await people().list();
    const [user] = await withLocks(people(), [{ ...u, sessions: all.find((x) => x.id === u.id)?.sessions ?? 0 }]);
    return user!;
  };
  return {
    'users:list': async (): Promise<UsersList> => {
      if (!ctx.people) return { available: false, reason: SOLO_HAS_NO_USERS, users: [], rules: null };
      const s = ctx.people.settings;
      return {
        available: true,
        reason: null,
        users: await withLocks(ctx.people, await ctx.people.list()),
        sso: ctx.people.ssoHealth
          ? { state: ctx.people.ssoHealth.state, problem: ctx.people.ssoHealth.problem, since: ctx.people.ssoHealth.since }
          : null,
        rules: { passwordMin: PASSWORD_MIN, lockAfter: s.lockAfter, lockMinutes: s.lockMinutes, lockFirstMinutes: s.lockFirstMinutes },
      };
    },
    'users:add': async (input) => withSessions(await asked(() => people().add(input, ctx.operator()))),
    'users:update': async ({ id, role, disabled, password, unlock }) => {
      const p = people();
      let user: UserRecord | undefined;
      // The router read the caller before this ran; a demotion committed on another server since
      // (while this request was in flight) must not be undone by it: the caller is read again and
      // the change made under the team's people lock, which the demotion took too (issue 35).
      await p.store.exclusively(async () => {
        await stillMayUpdate();
        await asked(async () => {
          if (role !== undefined) user = await p.setRole(id, role, ctx.operator());
          if (disabled !== undefined) user = await p.setDisabled(id, disabled, ctx.operator());
          if (password !== undefined) user = await p.resetPassword(id, password, ctx.operator());
          if (unlock) user = await p.unlock(id, ctx.operator());
        });
      });
      if (!user) {
        const found = await p.store.byId(id);
        if (!found) throw new CoreError('NOT_FOUND', 'There is no such user (it may have been removed by another admin).');
        user = found;
      }
      return withSessions(user);
    },
  };
}

/** The caller of this request as they are now may still change users (a team server's admin): else it throws. */
async function stillMayUpdate(): Promise<void> {
  const request = currentRequest();
  if (!request?.caller || !request.current) return;
  const now = await request.current();
  if (!now) throw new CoreError('UNAUTHORIZED', SESSION_OVER);
  const refused = roleRefusal('users:update', now.role, {});
  if (refused) throw new CoreError('FORBIDDEN', refused);
}

/** Users with where each is locked out from now. */
async function withLocks(people: People, users: (UserRecord & { sessions: number })[]): Promise<User[]> {
  const locks = await people.locks();
  return users.map((u) => ({ ...toUser(u), locks: locks.get(u.name.toLowerCase()) ?? [] }));
}

const toUser = (u: UserRecord & { sessions: number }): User => ({
  id: u.id,
  name: u.name,
  displayName: u.displayName,
  role: u.role,
  method: u.method,
  disabled: u.disabled,
  lockedUntil: u.lockedUntil && u.lockedUntil > new Date().toISOString() ? u.lockedUntil : null,
  lastSignInAt: u.lastSignInAt,
  createdAt: u.createdAt,
  sessions: u.sessions,
});
