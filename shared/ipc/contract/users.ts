import * as z from 'zod';
import { Empty, type ChannelSchema } from './common.js';
import { ADMIN, ROLES } from '../roles.js';

/**
 * The people of a team server (issue 20): who may sign in, with which role. An admin adds users,
 * changes their role, disables them and resets their password in the Users screen; every change is
 * audited and ends the sessions it concerns. A solo console has one person (its OS account) and
 * answers that there are no users to manage.
 */
export const UserRole = z.enum(ROLES);

export const User = z.object({
  id: z.string(),
  name: z.string(),
  displayName: z.string(),
  role: UserRole,
  /** How they sign in: a password kept by the server, or the organisation's identity provider. */
  method: z.enum(['password', 'oidc']),
  disabled: z.boolean(),
  /** Until when sign-in is refused after too many wrong passwords, from some address (the latest; null: not locked). */
  lockedUntil: z.string().nullable(),
  /** Where sign-in is refused from now, and until when (each address is locked on its own). */
  locks: z.array(z.object({ address: z.string(), until: z.string() })).optional(),
  lastSignInAt: z.string().nullable(),
  createdAt: z.string(),
  /** Sessions in force. */
  sessions: z.number().int().nonnegative(),
});
export type User = z.infer<typeof User>;

export const UsersList = z.object({
  /** False on a solo console: `reason` says why there is nothing to manage. */
  available: z.boolean(),
  reason: z.string().nullable(),
  users: z.array(User),
  /**
   * Single sign-on's standing, when the server has it: a problem that is the set-up's (the provider
   * unreachable, the client secret refused, no groups sent), for the admin to fix. Null: none set.
   */
  sso: z
    .object({ state: z.enum(['ok', 'problem']), problem: z.string().nullable(), since: z.string() })
    .nullable()
    .optional(),
  /** The rules the server applies, shown beside the form. */
  rules: z
    .object({
      passwordMin: z.number().int(),
      lockAfter: z.number().int(),
      lockMinutes: z.number().int(),
      lockFirstMinutes: z.number().int().optional(),
    })
    .nullable(),
});
export type UsersList = z.infer<typeof UsersList>;

const Name = z.string().trim().min(1).max(100);
const Password = z.string().min(1).max(1024);

export const NewUserInput = z.strictObject({
  name: Name,
  displayName: z.string().trim().min(2).max(80),
  role: UserRole,
  /** Null: the person signs in through the identity provider only. */
  password: Password.nullable(),
});
export type NewUserInput = z.infer<typeof NewUserInput>;

export const UserChange = z.strictObject({
  id: z.string().min(1).max(40),
  role: UserRole.optional(),
  disabled: z.boolean().optional(),
  /** A new password (ends the user's sessions and lifts a lock). */
  password: Password.optional(),
  /** Lifts the user's sign-in locks, from every address. */
  unlock: z.literal(true).optional(),
});
export type UserChange = z.infer<typeof UserChange>;

export const usersChannels = {
  'users:list': { reads: [], roles: ADMIN, action: 'Managing users', input: Empty, output: UsersList },
  'users:add': { roles: ADMIN, action: 'Adding users', input: NewUserInput, output: User },
  'users:update': { roles: ADMIN, action: 'Changing users', input: UserChange, output: User },
} as const satisfies Record<string, ChannelSchema>;
