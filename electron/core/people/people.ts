import { createHash, randomBytes } from 'node:crypto';
import { PERSONAL_SETTINGS, PersonalSettings, type Settings } from '../../../shared/ipc/contract.js';
import type { Caller, Role } from '../../../shared/ipc/roles.js';
import { runWithRequest, type RequestContext } from '../../ipc/request-context.js';
import type { AuditEntry, AuditStore } from '../audit/port.js';
import { addressKey } from './address.js';
import { hashPassword, passwordProblem, verifyPassword } from './password.js';
import { UserExistsError, type PeopleStore, type SignInMethod, type UserRecord } from './port.js';
import type { OidcClient, OidcSignInError, PendingOidcSignIn } from './oidc.js';
import { ADMIN_PROBLEMS } from './sso-codes.js';

/**
 * The team server's people: signing in (a password kept here, or the organisation's identity
 * provider), sessions, lockout, and the admin's changes to users. Every sign-in, failed sign-in,
 * lockout, sign-out and change is written to the team's audit log under the person concerned and
 * the client that sent it.
 *
 * - A wrong password says only that the user name or password is wrong, and so does a disabled
 *   user's right one. The fifth wrong one in a row from one address locks the name for that address:
 *   a minute, then twice as long each time, up to `lockMinutes` (15); other addresses are not
 *   locked out (issue 35), and an admin sees and lifts locks. Attempts are claimed in the shared store
 *   before the password is checked (attempts at once cannot outrun the lock), for every name, held
 *   or not, on every server alike: the answers do not tell which names exist.
 * - A session is a random 256-bit token in an HttpOnly cookie (or a bearer token); the store keeps
 *   only its SHA-256. It ends after `idleMinutes` without a request the person made (30) or
 *   `lifetimeHours` after sign-in (12), when its person signs out (here or everywhere), is
 *   disabled, changes role or has their password reset.
 */
export interface PeopleOptions {
  idleMinutes?: number;
  lifetimeHours?: number;
  lockAfter?: number;
  /** The first lock of an address (minutes); each next one twice as long, up to lockMinutes. */
  lockFirstMinutes?: number;
  lockMinutes?: number;
  now?: () => Date;
}

export const PEOPLE_DEFAULTS = { idleMinutes: 30, lifetimeHours: 12, lockAfter: 5, lockFirstMinutes: 1, lockMinutes: 15 } as const;

/** Who is signing in, as the transport knows them (the audit entry's client). */
export interface SignInClient {
  address: string;
  userAgent: string | null;
}

export type SignInResult =
  | { ok: true; token: string; caller: Caller; expiresAt: string }
  | { ok: false; reason: 'wrong' | 'locked' | 'disabled' | 'invalid'; message: string };

/** An identity the organisation's provider vouched for (oidc.ts). */
export interface ProvidedIdentity {
  issuer: string;
  subject: string;
  userName: string;
  displayName: string;
  role: Role;
}

/** A session found by its token: the person, and the session's key (to end it, to watch it). */
export interface Identified {
  caller: Caller;
  session: string;
  expiresAt: string;
}

/** Why sessions ended: the host closes the connections they hold. */
export interface SessionsEnded {
  userId: string;
  /** One session (its key), or every session of the user when absent. */
  session?: string;
}

/** How single sign-on stands (People.ssoHealth). */
export interface SsoHealth {
  state: 'ok' | 'problem';
  /** What is wrong, for an admin (no secret, no token), or null. */
  problem: string | null;
  /** The refusal's code (oidc.ts OidcErrorCode), or null. */
  code: string | null;
  /** Since when it stands so. */
  since: string;
}

/** Refusals that mean the provider cannot be used at all (the button is not offered meanwhile). */
const DISCOVERY: ReadonlySet<string> = new Set(['unreachable', 'not_a_provider', 'misconfigured']);

/** Sessions ended as another server of the team said (its live notice), or null when it is not one. */
export function sessionsEndedOf(payload: unknown): SessionsEnded | null {
  if (typeof payload !== 'object' || payload === null) return null;
  const { userId, session } = payload as { userId?: unknown; session?: unknown };
  if (typeof userId !== 'string' || !userId || userId.length > 100) return null;
  if (session === undefined) return { userId };
  return typeof session === 'string' && /^[0-9a-f]{64}$/.test(session) ? { userId, session } : null;
}

export const WRONG = 'The user name or password is wrong.';

const NAME = /^[a-z0-9][a-z0-9._@+-]{0,99}$/;

/** A user name as stored: trimmed, lower case; null when it is not one. */
export function userNameOf(raw: string): string | null {
  const name = raw.trim().toLowerCase();
  return NAME.test(name) ? name : null;
}

export function userNameProblem(raw: string): string | null {
  return userNameOf(raw)
    ? null
    : 'A user name has 1 to 100 characters: lower-case letters, digits and . _ @ + - (starting with a letter or digit).';
}

export function displayNameOf(raw: string): string {
  const clean = [...raw]
    .map((c) => (c < ' ' || c === '\u007f' ? ' ' : c))
    .join('')
    .trim()
    .replace(/\s+/g, ' ');
  if (clean.length < 2 || clean.length > 80) throw new RangeError('A display name has 2 to 80 characters.');
  return clean;
}

/** The name an attempt at signing in counts against (and the rate limit's): the user name, or one key for every text that is not one. */
export function attemptKey(raw: string): string {
  return userNameOf(raw.slice(0, 200)) ?? '(not a valid name)';
}

export const sessionKey = (token: string) => createHash('sha256').update(token).digest('hex');

/** A token as a cookie or a bearer header carries it: 43 base64url characters. */
export const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

const describeUser = (u: { name: string; displayName: string }) => `${u.name} (${u.displayName})`;
const callerOf = (u: UserRecord, method: SignInMethod): Caller => ({
  userId: u.id,
  userName: u.name,
  displayName: u.displayName,
  role: u.role,
  method,
});

export class People {
  private readonly opts: Required<Omit<PeopleOptions, 'now'>>;
  private readonly now: () => Date;
  private readonly listeners = new Set<(ended: SessionsEnded) => void>();
  /** Who tells the team's other servers of sessions ended here (the team server's live link). */
  private readonly relays = new Set<(ended: SessionsEnded) => void>();
  /** Sessions checked in the last few seconds: a page's assets do not each ask the database. */
  private readonly recent = new Map<string, { at: number; found: Identified | null; seen: number }>();

  constructor(
    readonly store: PeopleStore,
    /** The team's audit log (given late: the core opens it). */
    private readonly audit: () => AuditStore | undefined,
    opts: PeopleOptions = {},
  ) {
    this.opts = { ...PEOPLE_DEFAULTS, ...stripUndefined(opts) };
    this.now = opts.now ?? (() => new Date());
  }

  /** Single sign-on, once enableSso() is called (the host reads it at each request). */
  sso?: {
    label: string;
    begin(): Promise<{ url: string; pending: unknown }>;
    finish(callbackUrl: URL, pending: unknown, client: SignInClient): Promise<SignInResult>;
    /** The provider's end-session address for a person signing out (null: it has none). */
    endSession(): Promise<string | null>;
    /**
     * Whether the button may be offered: the provider was reached (checked again after a failure,
     * at most every 30 s); when not, why, in words for the sign-in page.
     */
    available(): Promise<{ ok: boolean; message: string | null }>;
    /** The origin single sign-on works at (its registered callback's): a browser on another name of this server is sent there first. */
    home?: string;
  };

  /** How single sign-on stands, for the admins (the Users screen) and the log: a problem that is the set-up's, not a person's. */
  ssoHealth: SsoHealth | null = null;

  /**
   * Signs people in through the organisation's identity provider too (oidc.ts). The provider is
   * reached at once (`checkSso`, at the server's start: a wrong issuer is said loudly then, and the
   * sign-in page offers passwords only), and again after a failure: a provider down when the server
   * starts does not stop password sign-in, and single sign-on works once it is back.
   */
  enableSso(
    label: string,
    open: () => Promise<OidcClient>,
    log: (line: string) => void = () => {},
    /** Where the provider sends the browser back after its sign-out: this server's sign-in page (registered at the provider). */
    postLogoutRedirectUri?: string,
  ): void {
    let opened: Promise<OidcClient> | undefined;
    let lastTry = 0;
    const health = (state: SsoHealth['state'], problem: string | null, code: string | null = null) => {
      const now = this.now().toISOString();
      const same = this.ssoHealth?.state === state && this.ssoHealth.problem === problem;
      this.ssoHealth = { state, problem, code, since: same ? this.ssoHealth!.since : now };
    };
    const client = () =>
      (opened ??= (async () => {
        lastTry = this.now().getTime();
        try {
          const c = await open();
          if (this.ssoHealth?.state !== 'problem' || DISCOVERY.has(this.ssoHealth.code ?? '')) health('ok', null);
          return c;
        } catch (error) {
          opened = undefined;
          const e = error as { code?: string; message?: string; detail?: string };
          health('problem', e?.detail ?? e?.message ?? String(error), e?.code ?? 'unreachable');
          log(`single sign-on is unavailable: ${e?.detail ?? e?.message}`);
          throw error;
        }
      })());
    this.sso = {
      label,
      ...(postLogoutRedirectUri ? { home: new URL(postLogoutRedirectUri).origin } : {}),
      begin: async () => (await client()).begin(),
      endSession: async () => (postLogoutRedirectUri ? (await client()).endSessionUrl(postLogoutRedirectUri) : null),
      available: async () => {
        const down = () => this.ssoHealth?.state === 'problem' && DISCOVERY.has(this.ssoHealth.code ?? '');
        // A provider that could not be reached is tried again now and then, not at every page, and in
        // the background: the sign-in page is not kept waiting for a provider that is down.
        if (down() && this.now().getTime() - lastTry > 30_000) void client().catch(() => undefined);
        return down()
          ? {
              ok: false,
              message:
                'Single sign-on is unavailable right now (the identity provider cannot be used); sign in with your user name and password, or ask an admin.',
            }
          : { ok: true, message: null };
      },
      finish: async (callbackUrl, pending, from) => {
        try {
          const identity = await (await client()).finish(callbackUrl, pending as PendingOidcSignIn);
          const result = await this.signInWithIdentity(identity, from);
          if (result.ok) health('ok', null);
          return result;
        } catch (error) {
          const e = error as { name?: string; code?: string; message?: string; detail?: string; who?: OidcSignInError['who'] };
          if (e?.name !== 'OidcSignInError') throw error;
          log(`single sign-on refused (${e.code}): ${e.detail ?? e.message}`);
          if (ADMIN_PROBLEMS.has(e.code as never)) health('problem', e.detail ?? e.message ?? String(e.code), e.code ?? null);
          // Whom the provider vouched for, when it got that far: the entry names them (issue 35).
          await this.record(
            {
              operator: e.who ? `${e.who.userName} (single sign-on)` : 'single sign-on',
              action: 'sign-in:failed',
              target: e.who ? `oidc:${e.who.issuer} ${e.who.subject}` : null,
              reason: null,
              result: `failed: ${e.code}: ${e.message}`,
            },
            from,
            null,
          );
          return { ok: false, reason: 'invalid', message: e.message ?? 'Single sign-on failed.' };
        }
      },
    };
  }

  /** Reaches the identity provider now (the server's start): its health says what is wrong, loudly, if anything. */
  async checkSso(): Promise<SsoHealth | null> {
    await this.sso?.begin().catch(() => undefined);
    return this.ssoHealth;
  }

  get settings(): Readonly<Required<Omit<PeopleOptions, 'now'>>> {
    return this.opts;
  }

  onSessionsEnded(listener: (ended: SessionsEnded) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Sessions ended here are told to `relay` (the team's other servers, over the live link), which
   * close their connections at once rather than at their next check of the session (issue 35).
   */
  relayEndedTo(relay: (ended: SessionsEnded) => void): () => void {
    this.relays.add(relay);
    return () => this.relays.delete(relay);
  }

  /** Sessions another server of the team ended: this server's connections of them close now. */
  heardEnded(e: SessionsEnded): void {
    this.forget(e);
    for (const l of this.listeners) l(e);
  }

  private forget(e: SessionsEnded): void {
    for (const [k, v] of this.recent) if (e.session === k || (!e.session && v.found?.caller.userId === e.userId)) this.recent.delete(k);
  }

  private ended(e: SessionsEnded): void {
    this.forget(e);
    for (const l of this.listeners) l(e);
    for (const r of this.relays) r(e);
  }

  /** Writes an entry as `caller` from `client` (null caller: nobody known, e.g. a failed sign-in). */
  private async record(entry: AuditEntry, client: SignInClient | null, caller: Caller | null): Promise<void> {
    const audit = this.audit();
    if (!audit) return;
    const request: RequestContext = { ...(client ? { client } : {}), ...(caller ? { caller } : {}) };
    await runWithRequest(request, () => audit.append(entry));
  }

  private someone = false;
  async noUsersYet(): Promise<boolean> {
    // Once the team has a user it keeps one (users are disabled, never removed): asked no more.
    if (!this.someone) this.someone = await this.store.hasUsers();
    return !this.someone;
  }

  async signInWithPassword(rawName: string, password: string, client: SignInClient): Promise<SignInResult> {
    const now = this.now();
    const name = userNameOf(rawName.slice(0, 200));
    // Attempts count per name and per place they come from: wrong passwords from one address lock
    // that address out, never the person everywhere (anyone could do that to anyone before, issue 35).
    const key = { name: attemptKey(rawName), address: addressKey(client.address) };
    const lock = { firstMs: this.opts.lockFirstMinutes * 60_000, maxMs: this.opts.lockMinutes * 60_000 };
    const lockedMessage = (until: string) =>
      `Too many wrong passwords from where you are: signing in as this user from here is refused until ${until.slice(11, 16)} UTC (the lock grows with each ${ordinal(this.opts.lockAfter)} wrong one in a row, up to ${this.opts.lockMinutes} minutes). Try again then, or ask an admin to lift the lock.`;
    // Every name, held or not, takes the same path through the same shared table: the answers and
    // their timing do not tell which names exist, on any server of the team.
    const user = name ? await this.store.byName(name) : null;
    const asUser = user ? callerOf(user, 'password') : null;
    const who = user ? describeUser(user) : name ? `unknown user "${name}"` : 'unknown user (not a valid name)';
    const target = user ? `user:${user.name}` : null;
    const failed = (result: string) =>
      this.record({ operator: who, action: 'sign-in:failed', target, reason: null, result: `failed: ${result}` }, client, asUser);
    const claim = await this.store.claimAttempt(key, this.opts.lockAfter, now.toISOString());
    if (!claim.go) {
      await verifyPassword(password, null);
      await failed(claim.lockedUntil ? `locked (from ${key.address})` : 'too many attempts at once');
      return claim.lockedUntil
        ? { ok: false, reason: 'locked', message: lockedMessage(claim.lockedUntil) }
        : { ok: false, reason: 'wrong', message: WRONG };
    }
    const check = await verifyPassword(password, user?.method === 'password' ? user.passwordHash : null);
    // A disabled user's right password is answered as a wrong one, with the same work: the answer
    // does not confirm a password to whoever holds it (issue 35). The audit log says which it was.
    const good = check.ok && user !== null && !user.disabled;
    const settled = await this.store.settleAttempt(key, good, this.opts.lockAfter, lock, now.toISOString());
    if (!good || !user) {
      await failed(!user ? 'no such user' : !check.ok ? 'wrong password' : 'disabled');
      if (settled.lockedUntil)
        await this.record(
          {
            operator: who,
            action: 'sign-in:locked',
            target,
            reason: `${this.opts.lockAfter} wrong passwords in a row from ${key.address}`,
            result: `locked for ${key.address} until ${settled.lockedUntil}`,
          },
          client,
          asUser,
        );
      return { ok: false, reason: 'wrong', message: WRONG };
    }
    // Right, but other attempts locked the name meanwhile: the lock holds.
    if (!settled.allowed) {
      await failed(`locked (from ${key.address})`);
      return { ok: false, reason: 'locked', message: lockedMessage(settled.lockedUntil ?? now.toISOString()) };
    }
    if (check.rehash) await this.store.update(user.id, { passwordHash: await hashPassword(password) }, now.toISOString());
    return this.open(user, 'password', client);
  }

  /**
   * A person the identity provider vouched for: their user is found by the provider's subject, or
   * made at their first sign-in. The provider's groups decide the role at every sign-in (a change
   * is audited); an admin may disable such a user here.
   */
  async signInWithIdentity(identity: ProvidedIdentity, client: SignInClient): Promise<SignInResult> {
    const now = this.now().toISOString();
    let user = await this.store.bySubject(identity.issuer, identity.subject);
    // A single sign-on user an admin added under this name (users add --sso): it becomes this
    // person's, with what the admin set (disabled stays disabled).
    if (!user) {
      const named = await this.store.byName(userNameOf(identity.userName) ?? '');
      if (named && named.method === 'oidc' && (await this.store.linkSubject(named.id, identity.issuer, identity.subject, now)))
        user = await this.store.byId(named.id);
    }
    if (!user) {
      const base = userNameOf(identity.userName) ?? userNameOf(identity.subject) ?? `sso-${sessionKey(identity.subject).slice(0, 12)}`;
      // Never the user of someone else who has that name (a password user, another provider's
      // person): the newcomer gets a name of their own, "alice.sso" (then .sso2 …).
      for (const name of [base, `${base.slice(0, 90)}.sso`, ...[2, 3, 4, 5].map((n) => `${base.slice(0, 90)}.sso${n}`)]) {
        try {
          user = await this.store.add(
            {
              name,
              displayName: safeDisplayName(identity.displayName, name),
              role: identity.role,
              method: 'oidc',
              passwordHash: null,
              oidc: { issuer: identity.issuer, subject: identity.subject },
            },
            now,
          );
          break;
        } catch (error) {
          if (!(error instanceof UserExistsError)) throw error;
        }
      }
      if (!user) {
        const message = `The name ${base} and its variants are taken by other users of this server: ask an admin to free one.`;
        await this.record(
          {
            operator: `${base} (single sign-on)`,
            action: 'sign-in:failed',
            target: `user:${base}`,
            reason: null,
            result: `failed: ${message}`,
          },
          client,
          null,
        );
        return { ok: false, reason: 'invalid', message };
      }
      await this.record(
        {
          operator: describeUser(user),
          action: 'user:added',
          target: `user:${user.name}`,
          reason: 'first single sign-on',
          result: `role ${user.role}`,
        },
        client,
        callerOf(user, 'oidc'),
      );
    } else if (user.role !== identity.role && !user.disabled) {
      const before = user.role;
      user = await this.store.update(user.id, { role: identity.role }, now);
      // Their consoles open under the old role end now, as when an admin changes it.
      await this.endAll(user.id);
      await this.record(
        {
          operator: describeUser(user),
          action: 'user:role-changed',
          target: `user:${user.name}`,
          reason: "the identity provider's groups",
          result: `${before} → ${user.role}`,
        },
        client,
        callerOf(user, 'oidc'),
      );
    }
    if (user.disabled) {
      await this.record(
        { operator: describeUser(user), action: 'sign-in:failed', target: `user:${user.name}`, reason: null, result: 'failed: disabled' },
        client,
        callerOf(user, 'oidc'),
      );
      return { ok: false, reason: 'disabled', message: 'This user is disabled: ask an admin of the team server.' };
    }
    return this.open(user, 'oidc', client);
  }

  private async open(user: UserRecord, method: SignInMethod, client: SignInClient): Promise<SignInResult> {
    const now = this.now();
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(now.getTime() + this.opts.lifetimeHours * 3_600_000).toISOString();
    const clientLine = `${client.address}${client.userAgent ? ` ${client.userAgent.slice(0, 300)}` : ''}`;
    await this.store.createSession(sessionKey(token), {
      userId: user.id,
      method,
      createdAt: now.toISOString(),
      lastSeenAt: now.toISOString(),
      expiresAt,
      client: clientLine,
    });
    await this.store.signedIn(user.id, now.toISOString());
    const caller = callerOf(user, method);
    await this.record(
      {
        operator: describeUser(user),
        action: 'sign-in',
        target: `user:${user.name}`,
        reason: null,
        result: `ok (${method === 'oidc' ? 'single sign-on' : 'password'})`,
      },
      client,
      caller,
    );
    return { ok: true, token, caller, expiresAt };
  }

  /**
   * The person a session token belongs to, or null (no such session, idle or past its lifetime,
   * user disabled or gone). Seeing a session counts as activity. `fresh`: read from the store, not
   * from what this server saw in the last few seconds (a change another server made is seen).
   */
  async identify(token: string | undefined, opts: { touch?: boolean; fresh?: boolean } = {}): Promise<Identified | null> {
    if (!token || !TOKEN_SHAPE.test(token)) return null;
    const key = sessionKey(token);
    const now = this.now();
    const touch = opts.touch ?? true;
    const cached = this.recent.get(key);
    if (cached && !opts.fresh && now.getTime() - cached.at < 5_000) {
      if (!cached.found || cached.found.expiresAt <= now.toISOString()) return null;
      // Activity seen from the cache still counts (at most one write a minute per session).
      if (touch && now.getTime() - cached.seen > 60_000) {
        await this.store.touchSession(key, now.toISOString());
        cached.seen = now.getTime();
      }
      return cached.found;
    }
    const { found, seen } = await this.lookUp(key, now, touch);
    this.recent.set(key, { at: now.getTime(), found, seen });
    if (this.recent.size > 10_000) this.recent.delete(this.recent.keys().next().value!);
    return found;
  }

  private async lookUp(key: string, now: Date, touch: boolean): Promise<{ found: Identified | null; seen: number }> {
    const s = await this.store.session(key);
    if (!s) return { found: null, seen: 0 };
    const idleSince = new Date(now.getTime() - this.opts.idleMinutes * 60_000).toISOString();
    const user = await this.store.byId(s.userId);
    const over = s.expiresAt <= now.toISOString() ? 'its lifetime' : s.lastSeenAt < idleSince ? 'its idle time' : null;
    if (over || !user || user.disabled) {
      if (await this.store.endSession(key))
        if (user && over)
          await this.record(
            {
              operator: describeUser(user),
              action: 'sign-out',
              target: `user:${user.name}`,
              reason: `the session passed ${over}`,
              result: 'session expired',
            },
            null,
            callerOf(user, s.method),
          );
      this.ended({ userId: s.userId, session: key });
      return { found: null, seen: 0 };
    }
    // Activity: at most one write a minute per session.
    let seen = Date.parse(s.lastSeenAt);
    if (touch && now.getTime() - seen > 60_000) {
      await this.store.touchSession(key, now.toISOString());
      seen = now.getTime();
    }
    return { found: { caller: callerOf(user, s.method), session: key, expiresAt: s.expiresAt }, seen };
  }

  /** Ends the session of `token`, or every session of its person (`everywhere`). */
  async signOut(token: string | undefined, everywhere: boolean, client: SignInClient | null): Promise<boolean> {
    const found = await this.identify(token);
    if (!found) return false;
    const { caller, session } = found;
    // Sessions already past their limits are not counted as ended now.
    if (everywhere) await this.prune();
    const count = everywhere ? await this.store.endSessionsOf(caller.userId) : Number(await this.store.endSession(session));
    this.ended(everywhere ? { userId: caller.userId } : { userId: caller.userId, session });
    await this.record(
      {
        operator: `${caller.userName} (${caller.displayName})`,
        action: everywhere ? 'sign-out:everywhere' : 'sign-out',
        target: `user:${caller.userName}`,
        reason: null,
        result: everywhere ? `${count} session${count === 1 ? '' : 's'} ended` : 'ok',
      },
      client,
      caller,
    );
    return true;
  }

  /** Forgets sessions past their limits (a server runs it now and then). */
  async prune(): Promise<number> {
    const now = this.now();
    return this.store.pruneSessions(new Date(now.getTime() - this.opts.idleMinutes * 60_000).toISOString(), now.toISOString());
  }

  // ── An admin's changes (the caller is the request's: the audit store names them) ─────────────

  async list(): Promise<(UserRecord & { sessions: number })[]> {
    const [users, counts] = await Promise.all([this.store.users(), this.store.sessionCounts()]);
    return users.map((u) => ({ ...u, sessions: counts.get(u.id) ?? 0 }));
  }

  /** Adds a user; `password` null makes a single sign-on user (signs in through the provider only). */
  async add(input: { name: string; displayName: string; role: Role; password: string | null }, actor: string): Promise<UserRecord> {
    const name = userNameOf(input.name);
    if (!name) throw new RangeError(userNameProblem(input.name)!);
    const displayName = displayNameOf(input.displayName);
    if (input.password !== null) {
      const problem = passwordProblem(input.password);
      if (problem) throw new RangeError(problem);
    }
    const user = await this.store.add(
      {
        name,
        displayName,
        role: input.role,
        method: input.password === null ? 'oidc' : 'password',
        passwordHash: input.password === null ? null : await hashPassword(input.password),
      },
      this.now().toISOString(),
    );
    await this.audit()?.append({
      operator: actor,
      action: 'user:added',
      target: `user:${user.name}`,
      reason: null,
      result: `${user.displayName}, role ${user.role}`,
    });
    return user;
  }

  async setRole(id: string, role: Role, actor: string): Promise<UserRecord> {
    const before = await this.mustExist(id);
    if (before.role === role) return before;
    // Once they have signed in, the provider's groups set a single sign-on user's role at every
    // sign-in: a role set here would be replaced silently (issue 35). Their groups are where to change it.
    if (before.method === 'oidc' && before.lastSignInAt)
      throw new RangeError(
        `${before.displayName} signs in with single sign-on: their role comes from their groups at the identity provider at every sign-in. Change their groups there.`,
      );
    if (before.role === 'admin') await this.keepAnAdmin(before, `${before.name} cannot stop being an admin`);
    const user = await this.store.update(id, { role }, this.now().toISOString());
    await this.endAll(user.id);
    await this.audit()?.append({
      operator: actor,
      action: 'user:role-changed',
      target: `user:${user.name}`,
      reason: null,
      result: `${before.role} → ${role}`,
    });
    return user;
  }

  async setDisabled(id: string, disabled: boolean, actor: string): Promise<UserRecord> {
    const before = await this.mustExist(id);
    if (before.disabled === disabled) return before;
    if (disabled && before.role === 'admin') await this.keepAnAdmin(before, `${before.name} cannot be disabled`);
    const user = await this.store.update(id, { disabled }, this.now().toISOString());
    if (disabled) await this.endAll(user.id);
    await this.audit()?.append({
      operator: actor,
      action: disabled ? 'user:disabled' : 'user:enabled',
      target: `user:${user.name}`,
      reason: null,
      result: 'ok',
    });
    return user;
  }

  async resetPassword(id: string, password: string, actor: string): Promise<UserRecord> {
    await this.mustExist(id);
    const user = await this.store.update(id, { passwordHash: await hashPassword(password) }, this.now().toISOString());
    // A new password lifts a lock (the admin who reset it has spoken to the person).
    await this.store.clearAttempts(attemptKey(user.name));
    // Whoever held the old password is out.
    await this.endAll(user.id);
    await this.audit()?.append({
      operator: actor,
      action: 'user:password-reset',
      target: `user:${user.name}`,
      reason: null,
      result: 'ok (sessions ended, lock lifted)',
    });
    return user;
  }

  /** A person's own view settings (PERSONAL_SETTINGS: theme, zone, columns, views, folded sidebar) as they saved them: each one still valid. */
  async viewSettings(userId: string): Promise<Partial<Settings>> {
    const saved = (await this.store.viewSettings(userId)) ?? {};
    const kept: Record<string, unknown> = {};
    for (const key of PERSONAL_SETTINGS) {
      const field = PersonalSettings.shape[key].safeParse(saved[key]);
      if (key in saved && field.success) kept[key] = field.data;
    }
    return kept as Partial<Settings>;
  }

  async saveViewSettings(userId: string, change: Partial<Settings>): Promise<Partial<Settings>> {
    const next = { ...(await this.viewSettings(userId)), ...stripUndefined(change) };
    await this.store.saveViewSettings(userId, next, this.now().toISOString());
    return next;
  }

  /** Lifts every lock of a user's name (from any address), audited; how many there were. */
  async unlock(id: string, actor: string): Promise<UserRecord> {
    const user = await this.mustExist(id);
    const lifted = await this.store.clearAttempts(attemptKey(user.name));
    await this.audit()?.append({
      operator: actor,
      action: 'user:unlocked',
      target: `user:${user.name}`,
      reason: null,
      result: lifted ? `wrong attempts forgotten from ${lifted} address${lifted === 1 ? '' : 'es'}` : 'nothing was locked',
    });
    return (await this.store.byId(id)) ?? user;
  }

  /** Where each name is locked out from now (the Users screen). */
  locks(): Promise<Map<string, { address: string; until: string }[]>> {
    return this.store.locks(this.now().toISOString());
  }

  private async endAll(userId: string): Promise<void> {
    await this.store.endSessionsOf(userId);
    this.ended({ userId });
  }

  /** The team keeps at least one admin who can sign in: nobody could manage its users otherwise. */
  private async keepAnAdmin(leaving: UserRecord, what: string): Promise<void> {
    const others = (await this.store.users()).filter((u) => u.role === 'admin' && !u.disabled && u.id !== leaving.id);
    if (!others.length)
      throw new RangeError(`${what}: the team needs at least one admin who can sign in. Make someone else an admin first.`);
  }

  private async mustExist(id: string): Promise<UserRecord> {
    const user = await this.store.byId(id);
    if (!user) throw new RangeError('There is no such user (it may have been removed by another admin).');
    return user;
  }
}

function safeDisplayName(raw: string, fallback: string): string {
  try {
    return displayNameOf(raw);
  } catch {
    return fallback.length >= 2 ? fallback : `${fallback} (SSO)`;
  }
}

function ordinal(n: number): string {
  return ['zeroth', 'first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth'][n] ?? `${n}th`;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
