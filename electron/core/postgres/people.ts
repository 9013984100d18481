import { randomBytes } from 'node:crypto';
import { isRole } from '../../../shared/ipc/roles.js';
import {
  UnknownUserError,
  UserExistsError,
  type NewUser,
  type PeopleStore,
  type SessionRecord,
  type UserPatch,
  type UserRecord,
} from '../people/port.js';
import type { PgDb } from './db.js';

/**
 * The team's people in PostgreSQL (people/port.ts): every server of a team signs in the same
 * users, counts the same wrong passwords and ends the same sessions.
 */
interface Row {
  id: string;
  name: string;
  display_name: string;
  role: string;
  method: string;
  password_hash: string | null;
  disabled: boolean;
  locked_until: string | null;
  last_sign_in_at: string | null;
  created_at: string;
  updated_at: string;
}

const USER_COLUMNS =
  'id, name, display_name, role, method, password_hash, disabled, (SELECT max(a.locked_until) FROM sign_in_attempts a WHERE a.name_key = lower(users.name)) AS locked_until, last_sign_in_at, created_at, updated_at';

function userOf(r: Row): UserRecord {
  return {
    id: r.id,
    name: r.name,
    displayName: r.display_name,
    // The CHECK keeps other values out; a role this code does not know reads as the least one.
    role: isRole(r.role) ? r.role : 'viewer',
    method: r.method === 'oidc' ? 'oidc' : 'password',
    disabled: r.disabled,
    lockedUntil: r.locked_until,
    lastSignInAt: r.last_sign_in_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

interface SessionRow {
  user_id: string;
  method: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  client: string | null;
}

const UNIQUE_VIOLATION = '23505';

/** The advisory lock that makes one step of an admin's change to people and the check of the admin ('cdpe'). */
const PEOPLE_LOCK = 0x63647065;

export function pgPeopleStore(db: PgDb): PeopleStore {
  const one = async (where: string, params: unknown[]) => {
    const r = await db.one<Row>(`SELECT ${USER_COLUMNS} FROM users WHERE ${where}`, params);
    return r ?? null;
  };
  return {
    // Held by a transaction of its own until `fn` ends: every server's changes wait for it. `fn`
    // writes on other connections of the pool, so a wait is bounded (lock_timeout): changes that
    // pile up past the pool's size fail in seconds with a clear error rather than wait for ever.
    exclusively: (fn) =>
      db.tx(async (tx) => {
        await tx.query("SET LOCAL lock_timeout = '10s'");
        try {
          await tx.query('SELECT pg_advisory_xact_lock($1)', [PEOPLE_LOCK]);
        } catch (error) {
          if ((error as { code?: string }).code === '55P03')
            throw new Error('Another change to the team’s people is taking long: nothing was changed. Try again in a moment.');
          throw error;
        }
        return fn();
      }),
    users: async () => (await db.query<Row>(`SELECT ${USER_COLUMNS} FROM users ORDER BY name`)).map(userOf),
    byName: async (name) => {
      const r = await one('lower(name) = lower($1)', [name]);
      return r ? { ...userOf(r), passwordHash: r.password_hash } : null;
    },
    byId: async (id) => {
      const r = await one('id = $1', [id]);
      return r ? userOf(r) : null;
    },
    bySubject: async (issuer, subject) => {
      const r = await one('oidc_issuer = $1 AND oidc_subject = $2', [issuer, subject]);
      return r ? userOf(r) : null;
    },
    add: async (u: NewUser, now) => {
      const id = `u_${randomBytes(9).toString('base64url')}`;
      try {
        const r = await db.one<Row>(
          `INSERT INTO users (id, name, display_name, role, method, password_hash, oidc_issuer, oidc_subject, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9) RETURNING ${USER_COLUMNS}`,
          [id, u.name, u.displayName, u.role, u.method, u.passwordHash, u.oidc?.issuer ?? null, u.oidc?.subject ?? null, now],
        );
        return userOf(r!);
      } catch (error) {
        if ((error as { code?: string }).code === UNIQUE_VIOLATION) throw new UserExistsError(u.name);
        throw error;
      }
    },
    update: async (id, patch: UserPatch, now) => {
      const params: unknown[] = [id, now];
      const sets = ['updated_at = $2'];
      if (patch.displayName !== undefined) sets.push(`display_name = $${params.push(patch.displayName)}`);
      if (patch.role !== undefined) sets.push(`role = $${params.push(patch.role)}`);
      if (patch.disabled !== undefined) sets.push(`disabled = $${params.push(patch.disabled)}`);
      if (patch.passwordHash !== undefined) sets.push(`password_hash = $${params.push(patch.passwordHash)}`);
      const r = await db.one<Row>(`UPDATE users SET ${sets.join(', ')} WHERE id = $1 RETURNING ${USER_COLUMNS}`, params);
      if (!r) throw new UnknownUserError(id);
      return userOf(r);
    },
    claimAttempt: async (key, lockAfter, now) => {
      // Counted before the password is checked; refused while locked, or while lockAfter attempts are
      // already counted (in flight on any server). A lock that is over starts the count again (and
      // keeps the number of locks, which makes the next one longer).
      const claimed = await db.query(
        `INSERT INTO sign_in_attempts AS a (name_key, address, failures) VALUES ($1, $2, 1)
         ON CONFLICT (name_key, address) DO UPDATE SET
           failures = CASE WHEN a.locked_until IS NOT NULL THEN 1 ELSE a.failures + 1 END,
           locked_until = NULL
         WHERE (a.locked_until IS NULL AND a.failures < $3) OR a.locked_until <= $4
         RETURNING failures`,
        [key.name, key.address, lockAfter, now],
      );
      if (claimed.length) return { go: true };
      const r = await db.one<{ locked_until: string | null }>(
        'SELECT locked_until FROM sign_in_attempts WHERE name_key = $1 AND address = $2',
        [key.name, key.address],
      );
      return { go: false, lockedUntil: r?.locked_until && r.locked_until > now ? r.locked_until : null };
    },
    settleAttempt: async (key, ok, lockAfter, lock, now) => {
      if (ok) {
        const cleared = await db.query(
          'DELETE FROM sign_in_attempts WHERE name_key = $1 AND address = $2 AND (locked_until IS NULL OR locked_until <= $3) RETURNING 1',
          [key.name, key.address, now],
        );
        if (cleared.length) return { allowed: true, lockedUntil: null };
        const r = await db.one<{ locked_until: string | null }>(
          'SELECT locked_until FROM sign_in_attempts WHERE name_key = $1 AND address = $2',
          [key.name, key.address],
        );
        const lockedUntil = r?.locked_until && r.locked_until > now ? r.locked_until : null;
        return { allowed: lockedUntil === null, lockedUntil };
      }
      // The lock doubles with each one this address earned since its last good password.
      const locked = await db.one<{ locked_until: string }>(
        `UPDATE sign_in_attempts SET failures = 0, locks = locks + 1,
           locked_until = to_char(($4::timestamptz + make_interval(secs => least($6::float8, $5::float8 * power(2, locks)) / 1000.0))
                                    AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
         WHERE name_key = $1 AND address = $2 AND failures >= $3 AND (locked_until IS NULL OR locked_until <= $4) RETURNING locked_until`,
        [key.name, key.address, lockAfter, now, lock.firstMs, lock.maxMs],
      );
      return { allowed: false, lockedUntil: locked?.locked_until ?? null };
    },
    viewSettings: async (userId) =>
      (await db.one<{ settings: Record<string, unknown> }>('SELECT settings FROM user_settings WHERE user_id = $1', [userId]))?.settings ??
      null,
    saveViewSettings: async (userId, settings, now) =>
      void (await db.query(
        `INSERT INTO user_settings (user_id, settings, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (user_id) DO UPDATE SET settings = EXCLUDED.settings, updated_at = EXCLUDED.updated_at`,
        [userId, JSON.stringify(settings), now],
      )),
    clearAttempts: async (name) => (await db.query('DELETE FROM sign_in_attempts WHERE name_key = $1 RETURNING 1', [name])).length,
    locks: async (now) => {
      const rows = await db.query<{ name_key: string; address: string; locked_until: string }>(
        'SELECT name_key, address, locked_until FROM sign_in_attempts WHERE locked_until > $1 ORDER BY locked_until DESC',
        [now],
      );
      const byName = new Map<string, { address: string; until: string }[]>();
      for (const r of rows) byName.set(r.name_key, [...(byName.get(r.name_key) ?? []), { address: r.address, until: r.locked_until }]);
      return byName;
    },
    linkSubject: async (id, issuer, subject, now) =>
      (
        await db.query(
          `UPDATE users SET oidc_issuer = $2, oidc_subject = $3, updated_at = $4
           WHERE id = $1 AND method = 'oidc' AND oidc_subject IS NULL RETURNING 1`,
          [id, issuer, subject, now],
        )
      ).length === 1,
    signedIn: async (id, now) => void (await db.query('UPDATE users SET last_sign_in_at = $2 WHERE id = $1', [id, now])),
    hasUsers: async () => (await db.one<{ any: boolean }>('SELECT EXISTS (SELECT 1 FROM users) AS any'))!.any,
    createSession: async (tokenHash, s: SessionRecord) => {
      await db.query(
        'INSERT INTO sessions (token_hash, user_id, method, created_at, last_seen_at, expires_at, client) VALUES ($1, $2, $3, $4, $5, $6, $7)',
        [tokenHash, s.userId, s.method, s.createdAt, s.lastSeenAt, s.expiresAt, s.client],
      );
    },
    session: async (tokenHash) => {
      const r = await db.one<SessionRow>(
        'SELECT user_id, method, created_at, last_seen_at, expires_at, client FROM sessions WHERE token_hash = $1',
        [tokenHash],
      );
      return r
        ? {
            userId: r.user_id,
            method: r.method === 'oidc' ? 'oidc' : 'password',
            createdAt: r.created_at,
            lastSeenAt: r.last_seen_at,
            expiresAt: r.expires_at,
            client: r.client,
          }
        : null;
    },
    touchSession: async (tokenHash, now) => {
      await db.query('UPDATE sessions SET last_seen_at = $2 WHERE token_hash = $1 AND last_seen_at < $2', [tokenHash, now]);
    },
    endSession: async (tokenHash) => (await db.query('DELETE FROM sessions WHERE token_hash = $1 RETURNING 1', [tokenHash])).length > 0,
    endSessionsOf: async (userId) => (await db.query('DELETE FROM sessions WHERE user_id = $1 RETURNING 1', [userId])).length,
    pruneSessions: async (idleBefore, now) =>
      (await db.query('DELETE FROM sessions WHERE last_seen_at < $1 OR expires_at <= $2 RETURNING 1', [idleBefore, now])).length,
    sessionCounts: async () =>
      new Map(
        (await db.query<{ user_id: string; n: number }>('SELECT user_id, count(*)::int AS n FROM sessions GROUP BY user_id')).map((r) => [
          r.user_id,
          r.n,
        ]),
      ),
  };
}
