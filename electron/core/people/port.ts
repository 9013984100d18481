import type { Role } from '../../../shared/ipc/roles.js';

/**
 * The people domain's storage port: a team server's users and their sessions. Only the team
 * store implements it (PostgreSQL: people are shared by every server of a team); a solo console
 * has one person, its OS account, and no sign-in. No engine in the words.
 *
 * Times are ISO 8601 UTC strings with milliseconds (text order is time order).
 */
export type SignInMethod = 'password' | 'oidc';

export interface UserRecord {
  /** Stable and never reused ("u_" + random); what sessions, downloads and the audit log point at. */
  id: string;
  /** What a person types to sign in: lower case, unique (case-insensitively) among the team's users. */
  name: string;
  displayName: string;
  role: Role;
  /** How this user signs in: a password kept here, or the organisation's identity provider. */
  method: SignInMethod;
  disabled: boolean;
  /** Until when sign-in is refused after too many wrong passwords (null: not locked). */
  lockedUntil: string | null;
  lastSignInAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface NewUser {
  name: string;
  displayName: string;
  role: Role;
  method: SignInMethod;
  /** The stored form of the password (password.ts); null for a single sign-on user. */
  passwordHash: string | null;
  /** A single sign-on user: the provider's issuer and the person's subject there. */
  oidc?: { issuer: string; subject: string };
}

export interface UserPatch {
  displayName?: string;
  role?: Role;
  disabled?: boolean;
  passwordHash?: string;
}

export interface SessionRecord {
  userId: string;
  method: SignInMethod;
  createdAt: string;
  lastSeenAt: string;
  /** The absolute end of the session, whatever its activity. */
  expiresAt: string;
  client: string | null;
}

export class UserExistsError extends Error {
  constructor(name: string) {
    super(`A user named ${name} already exists.`);
    this.name = 'UserExistsError';
  }
}

export class UnknownUserError extends Error {
  constructor(what: string) {
    super(`There is no user ${what}.`);
    this.name = 'UnknownUserError';
  }
}

/** An attempt at signing in: the name tried (lower case, or one key for what is not a name) and where from. */
export interface AttemptKey {
  name: string;
  /** The client's address, an IPv6 one as its /64 (address.ts addressKey). */
  address: string;
}

export interface PeopleStore {
  users(): Promise<UserRecord[]>;
  byName(name: string): Promise<(UserRecord & { passwordHash: string | null }) | null>;
  byId(id: string): Promise<UserRecord | null>;
  bySubject(issuer: string, subject: string): Promise<UserRecord | null>;
  /** Adds a user; a name taken (in any case) throws UserExistsError. */
  add(user: NewUser, now: string): Promise<UserRecord>;
  /** Changes a user; an unknown id throws UnknownUserError. */
  update(id: string, patch: UserPatch, now: string): Promise<UserRecord>;
  /**
   * Runs `fn` while no other change to people runs, on any server of the team (a lock in the
   * store): an admin's change and the check that they are still one happen as one step.
   */
  exclusively<T>(fn: () => Promise<T>): Promise<T>;
  /**
   * Takes an attempt at signing in as `key` (a user name, whoever holds it or not, from one source
   * address), atomically among the team's servers, before the password is checked: counted as a
   * failure until settled. Refused while that name is locked for that address (`lockedUntil`) or
   * while `lockAfter` attempts are already counted and not settled (attempts at once cannot outrun
   * the lock). Another address is not concerned: nobody can lock a person out from elsewhere.
   */
  claimAttempt(key: AttemptKey, lockAfter: number, now: string): Promise<{ go: true } | { go: false; lockedUntil: string | null }>;
  /**
   * Settles a claimed attempt. A good password clears the count and the address's past locks
   * (`allowed` false when it was locked meanwhile by other attempts); a wrong one that is the
   * `lockAfter`-th in a row locks the name for this address, for `lock.firstMs` the first time and
   * twice as long each time after, `lock.maxMs` at most (`lockedUntil`).
   */
  settleAttempt(
    key: AttemptKey,
    ok: boolean,
    lockAfter: number,
    lock: { firstMs: number; maxMs: number },
    now: string,
  ): Promise<{ allowed: boolean; lockedUntil: string | null }>;
  /** Forgets a name's wrong attempts and locks, from every address (an admin lifted them, or reset the password). */
  clearAttempts(name: string): Promise<number>;
  /** The addresses a name is locked for now, and until when (the Users screen). */
  locks(now: string): Promise<Map<string, { address: string; until: string }[]>>;
  /**
   * Ties a single sign-on user an admin added (no provider subject yet) to the provider's person
   * signing in under that name; false when it is not such a user (already tied, or a password user).
   */
  linkSubject(id: string, issuer: string, subject: string, now: string): Promise<boolean>;
  /** Records a good sign-in's time. */
  signedIn(id: string, now: string): Promise<void>;
  /** Whether the team has any user yet. */
  hasUsers(): Promise<boolean>;
  /** Sessions are kept by a hash of their token: the store never holds a token that works. */
  createSession(tokenHash: string, session: SessionRecord): Promise<void>;
  session(tokenHash: string): Promise<SessionRecord | null>;
  touchSession(tokenHash: string, now: string): Promise<void>;
  /** Ends one session; true when there was one. */
  endSession(tokenHash: string): Promise<boolean>;
  /** Ends every session of a user (sign out everywhere, disabled, role changed); how many ended. */
  endSessionsOf(userId: string): Promise<number>;
  /** Forgets sessions over either limit (idle since `idleBefore`, or expired at `now`). */
  pruneSessions(idleBefore: string, now: string): Promise<number>;
  /** The sessions in force, for the Users screen (user id → count). */
  sessionCounts(): Promise<Map<string, number>>;
  /** A person's own view settings (theme, columns, saved views) as they saved them, or null. */
  viewSettings(userId: string): Promise<Record<string, unknown> | null>;
  saveViewSettings(userId: string, settings: Record<string, unknown>, now: string): Promise<void>;
}
