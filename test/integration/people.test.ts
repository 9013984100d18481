import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pgAuditStore } from '../../electron/core/postgres/audit.js';
import { PgDb } from '../../electron/core/postgres/db.js';
import { migrate } from '../../electron/core/postgres/migrations.js';
import { pgPeopleStore } from '../../electron/core/postgres/people.js';
import { People, WRONG } from '../../electron/core/people/people.js';
import { runWithRequest } from '../../electron/ipc/request-context.js';
import type { AuditStore } from '../../electron/core/audit/port.js';
import { freshDatabase, type TestDatabase } from '../helpers/pg.js';

/**
 * The team's people on PostgreSQL (issue 20; the lockout per address, issue 35): lockout after five wrong passwords, sessions that end
 * when idle, at their lifetime, on sign-out (here or everywhere), when their person is disabled or
 * changes role; every sign-in and change in the audit log, under the person and their client.
 */
let database: TestDatabase;
let db: PgDb;
let audit: AuditStore;
let clock = new Date('2026-11-26T09:00:00.000Z');
const client = { address: '10.0.0.7', userAgent: 'test-agent' };
const minutes = (n: number) => (clock = new Date(clock.getTime() + n * 60_000));
let people: People;
let ids: Record<string, string>;

beforeAll(async () => {
  database = await freshDatabase();
  db = new PgDb(database.url, { max: 4 });
  await migrate(db);
  audit = pgAuditStore(db, () => clock);
  people = new People(pgPeopleStore(db), () => audit, { now: () => clock });
  const add = (name: string, displayName: string, role: 'admin' | 'support' | 'viewer', password: string | null) =>
    people.add({ name, displayName, role, password }, 'setup');
  ids = {
    alice: (await add('alice', 'Alice Admin', 'admin', 'alice password 1')).id,
    sam: (await add('Sam', 'Sam Support', 'support', 'sam password 12')).id,
    vera: (await add('vera', 'Vera Viewer', 'viewer', 'vera password 1')).id,
  };
}, 60_000);
afterAll(async () => {
  await db?.close();
  await database?.drop();
});
beforeEach(() => {
  minutes(60); // each test starts past any lock of the one before
});

const entries = async (action: string) => (await audit.entries()).filter((e) => e.action === action || e.action.startsWith(`${action}:`));

describe('signing in with a password', () => {
  it('opens a session for the right password (names are case-insensitive) and audits it under the person and client', async () => {
    const r = await people.signInWithPassword('  SAM ', 'sam password 12', client);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(r.caller).toEqual({ userId: ids.sam, userName: 'sam', displayName: 'Sam Support', role: 'support', method: 'password' });
    const found = await people.identify(r.token);
    expect(found?.caller.displayName).toBe('Sam Support');
    const signIn = (await entries('sign-in')).at(-1)!;
    expect(signIn).toMatchObject({
      operator: 'sam (Sam Support)',
      action: 'sign-in',
      result: 'ok (password)',
      client: '10.0.0.7 test-agent',
    });
    expect(signIn.person).toEqual({ userId: ids.sam, displayName: 'Sam Support', role: 'support', method: 'password' });
    // The store keeps a hash of the token, never the token.
    const stored = await db.query<{ token_hash: string }>('SELECT token_hash FROM sessions');
    expect(stored.map((s) => s.token_hash)).not.toContain(r.token);
  });

  it('says only "wrong" for a wrong password and for a name nobody has', async () => {
    const wrong = await people.signInWithPassword('vera', 'not her password', client);
    const nobody = await people.signInWithPassword('nobody', 'not her password', client);
    expect(wrong).toEqual({ ok: false, reason: 'wrong', message: WRONG });
    expect(nobody).toEqual({ ok: false, reason: 'wrong', message: WRONG });
    expect(WRONG).toBe('The user name or password is wrong.');
  });

  it('locks a name for the address of five wrong passwords in a row: a minute, then twice as long each time up to 15; audited', async () => {
    const lockedBefore = (await entries('sign-in:locked')).length;
    expect((await people.signInWithPassword('vera', 'vera password 1', client)).ok).toBe(true); // the count starts at 0
    const fiveWrong = async () => {
      for (let i = 1; i <= 4; i++) expect((await people.signInWithPassword('vera', `wrong ${i} password`, client)).ok).toBe(false);
      expect(await people.signInWithPassword('vera', 'wrong 5 password', client)).toMatchObject({ ok: false, reason: 'wrong' });
    };
    await fiveWrong();
    const right = await people.signInWithPassword('vera', 'vera password 1', client);
    expect(right).toMatchObject({ ok: false, reason: 'locked' });
    expect(!right.ok && right.message).toMatch(/^Too many wrong passwords from where you are: .* refused until \d\d:\d\d UTC/);
    const locks = await entries('sign-in:locked');
    expect(locks.length).toBe(lockedBefore + 1);
    expect(locks.at(-1)).toMatchObject({ operator: 'vera (Vera Viewer)', reason: '5 wrong passwords in a row from 10.0.0.7' });
    expect((await entries('sign-in:failed')).at(-1)).toMatchObject({ result: 'failed: locked (from 10.0.0.7)' });
    // The locks grow while wrong passwords go on: 1, 2, 4, 8, 15, 15 minutes.
    for (const [n, length] of [1, 2, 4, 8, 15, 15].entries()) {
      if (n > 0) await fiveWrong();
      minutes(length - 0.5);
      expect(await people.signInWithPassword('vera', 'vera password 1', client), `lock ${n + 1}`).toMatchObject({ reason: 'locked' });
      minutes(0.6);
    }
    expect((await people.signInWithPassword('vera', 'vera password 1', client)).ok).toBe(true);
    // …and a good password starts them again at a minute.
    await fiveWrong();
    minutes(1.1);
    expect((await people.signInWithPassword('vera', 'vera password 1', client)).ok).toBe(true);
  });

  it('a lock from one address does not lock the person out at another; an admin sees where and lifts it (audited)', async () => {
    const attacker = { address: '203.0.113.9', userAgent: 'guesser' };
    for (let i = 0; i < 5; i++) await people.signInWithPassword('alice', `guess ${i} password`, attacker);
    expect(await people.signInWithPassword('alice', 'alice password 1', attacker)).toMatchObject({ reason: 'locked' });
    // Alice at her desk is not locked out.
    expect((await people.signInWithPassword('alice', 'alice password 1', client)).ok).toBe(true);
    // IPv6: the whole /64 of one machine counts as one address.
    const v6 = (n: number) => ({ address: `2001:db8:1:2::${n}`, userAgent: 'guesser' });
    for (let i = 0; i < 5; i++) await people.signInWithPassword('vera', `guess ${i} password`, v6(i + 1));
    expect(await people.signInWithPassword('vera', 'vera password 1', v6(99))).toMatchObject({ reason: 'locked' });
    const locks = await people.locks();
    expect(locks.get('alice')).toEqual([{ address: '203.0.113.9', until: expect.any(String) as unknown }]);
    expect(locks.get('vera')).toEqual([{ address: '2001:db8:1:2::/64', until: expect.any(String) as unknown }]);
    await runWithRequest({}, () => people.unlock(ids.alice!, 'bea (Bea Boss)'));
    expect((await people.locks()).get('alice')).toBeUndefined();
    expect((await people.signInWithPassword('alice', 'alice password 1', attacker)).ok).toBe(true);
    expect((await entries('user:unlocked')).at(-1)).toMatchObject({
      operator: 'bea (Bea Boss)',
      target: 'user:alice',
      result: 'wrong attempts forgotten from 1 address',
    });
    minutes(16);
  });

  it('a good password in between starts the count again', async () => {
    for (let i = 0; i < 4; i++) await people.signInWithPassword('vera', 'wrong password!', client);
    expect((await people.signInWithPassword('vera', 'vera password 1', client)).ok).toBe(true);
    for (let i = 0; i < 4; i++) await people.signInWithPassword('vera', 'wrong password!', client);
    expect((await people.signInWithPassword('vera', 'vera password 1', client)).ok).toBe(true);
  });

  it('locks names nobody holds the same way, so the answers do not tell which names exist', async () => {
    for (let i = 0; i < 5; i++) await people.signInWithPassword('ghost', 'any password 1', client);
    const sixth = await people.signInWithPassword('ghost', 'any password 1', client);
    expect(sixth).toMatchObject({ ok: false, reason: 'locked' });
    expect((await entries('sign-in:locked')).at(-1)).toMatchObject({ operator: 'unknown user "ghost"' });
    minutes(16);
  });

  it('counts attempts at once: twelve guesses together check at most five passwords, then the user is locked', async () => {
    await people.signInWithPassword('vera', 'vera password 1', client); // the count starts at 0
    const before = (await entries('sign-in:failed')).length;
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => people.signInWithPassword('vera', `guess ${i} password`, client)),
    );
    expect(results.every((r) => !r.ok)).toBe(true);
    const failures = (await entries('sign-in:failed')).slice(before).map((e) => e.result);
    expect(failures.filter((r) => r === 'failed: wrong password')).toHaveLength(5);
    expect(failures.filter((r) => r !== 'failed: wrong password').every((r) => /too many attempts at once|locked/.test(r))).toBe(true);
    expect(await people.signInWithPassword('vera', 'vera password 1', client)).toMatchObject({ reason: 'locked' });
  });

  it('locks a name the same way on every server of the team, held or not', async () => {
    const other = new People(pgPeopleStore(db), () => audit, { now: () => clock }); // a second server
    for (let i = 0; i < 5; i++) await people.signInWithPassword('phantom', 'any password 1', client);
    for (let i = 0; i < 5; i++) await people.signInWithPassword('sam', 'wrong password!', client);
    expect(await other.signInWithPassword('phantom', 'any password 1', client)).toMatchObject({ reason: 'locked' });
    expect(await other.signInWithPassword('sam', 'sam password 12', client)).toMatchObject({ reason: 'locked' });
    // Text that is no user name at all is never written into the audit log as typed.
    await people.signInWithPassword('my secret passw0rd typed here', 'x', client);
    expect((await entries('sign-in:failed')).at(-1)!.operator).toBe('unknown user (not a valid name)');
    minutes(16);
  });

  it('answers a disabled user’s right password as a wrong one (the same words, the same work), and ends their sessions when disabled', async () => {
    const open = await people.signInWithPassword('sam', 'sam password 12', client);
    if (!open.ok) throw new Error('sign-in failed');
    const ended: unknown[] = [];
    const stop = people.onSessionsEnded((e) => ended.push(e));
    await people.setDisabled(ids.sam!, true, 'alice (Alice Admin)');
    stop();
    expect(ended).toEqual([{ userId: ids.sam }]);
    expect(await people.identify(open.token)).toBeNull();
    const wrong = await people.signInWithPassword('sam', 'wrong password!', client);
    const right = await people.signInWithPassword('sam', 'sam password 12', client);
    expect(right).toEqual(wrong);
    expect(right).toEqual({ ok: false, reason: 'wrong', message: WRONG });
    // The audit log tells them apart, for the admins.
    expect((await entries('sign-in:failed')).slice(-2).map((e) => e.result)).toEqual(['failed: wrong password', 'failed: disabled']);
    await people.setDisabled(ids.sam!, false, 'alice (Alice Admin)');
    expect((await people.signInWithPassword('sam', 'sam password 12', client)).ok).toBe(true);
  });
});

describe('sessions', () => {
  it('end after the idle time without a request, and at their lifetime whatever the activity (audited)', async () => {
    const idle = await people.signInWithPassword('vera', 'vera password 1', client);
    if (!idle.ok) throw new Error('sign-in failed');
    minutes(29);
    expect(await people.identify(idle.token)).not.toBeNull();
    minutes(29); // a request 29 minutes after the last one: still in
    expect(await people.identify(idle.token)).not.toBeNull();
    minutes(31);
    expect(await people.identify(idle.token)).toBeNull();
    expect((await entries('sign-out')).at(-1)).toMatchObject({ reason: 'the session passed its idle time', result: 'session expired' });

    const busy = await people.signInWithPassword('vera', 'vera password 1', client);
    if (!busy.ok) throw new Error('sign-in failed');
    for (let h = 0; h < 12 * 3; h++) {
      minutes(20);
      if (h < 35) expect(await people.identify(busy.token)).not.toBeNull();
    }
    expect(await people.identify(busy.token)).toBeNull();
    expect((await entries('sign-out')).at(-1)).toMatchObject({ reason: 'the session passed its lifetime' });
  });

  it('end on sign-out here, or everywhere', async () => {
    const a = await people.signInWithPassword('vera', 'vera password 1', client);
    const b = await people.signInWithPassword('vera', 'vera password 1', { address: '10.0.0.8', userAgent: null });
    const c = await people.signInWithPassword('vera', 'vera password 1', client);
    if (!a.ok || !b.ok || !c.ok) throw new Error('sign-in failed');
    expect(await people.signOut(a.token, false, client)).toBe(true);
    expect(await people.identify(a.token)).toBeNull();
    expect(await people.identify(b.token)).not.toBeNull();
    expect(await people.signOut(b.token, true, client)).toBe(true);
    expect(await people.identify(c.token)).toBeNull();
    expect((await entries('sign-out:everywhere')).at(-1)).toMatchObject({ operator: 'vera (Vera Viewer)', result: '2 sessions ended' });
    expect(await people.signOut(a.token, false, client)).toBe(false);
  });

  it('end when their person changes role (they sign in again with the new one)', async () => {
    const s = await people.signInWithPassword('vera', 'vera password 1', client);
    if (!s.ok) throw new Error('sign-in failed');
    await people.setRole(ids.vera!, 'support', 'alice (Alice Admin)');
    expect(await people.identify(s.token)).toBeNull();
    const again = await people.signInWithPassword('vera', 'vera password 1', client);
    expect(again.ok && again.caller.role).toBe('support');
    await people.setRole(ids.vera!, 'viewer', 'alice (Alice Admin)');
    expect((await entries('user:role-changed')).map((e) => e.result).slice(-2)).toEqual(['viewer → support', 'support → viewer']);
  });

  it('are nothing for tokens that are not ours: malformed, unknown, empty', async () => {
    for (const t of [undefined, '', 'x', 'a'.repeat(43), 'é'.repeat(43), '../../etc/passwd', 'a'.repeat(10_000)])
      expect(await people.identify(t)).toBeNull();
  });
});

describe('an admin’s changes', () => {
  it('are audited under the admin (the request’s person) and refused with why when wrong', async () => {
    const admin = { userId: ids.alice!, userName: 'alice', displayName: 'Alice Admin', role: 'admin' as const, method: 'password' };
    await runWithRequest({ caller: admin, client }, () =>
      people.add({ name: 'cleo', displayName: 'Cleo Compliance', role: 'compliance', password: 'cleo password 1' }, 'alice (Alice Admin)'),
    );
    const added = (await entries('user:added')).at(-1)!;
    expect(added).toMatchObject({ operator: 'alice (Alice Admin)', target: 'user:cleo', result: 'Cleo Compliance, role compliance' });
    expect(added.person).toMatchObject({ userId: ids.alice, role: 'admin' });
    await expect(
      people.add({ name: 'CLEO', displayName: 'Another Cleo', role: 'viewer', password: 'cleo password 2' }, 'x'),
    ).rejects.toThrow('A user named cleo already exists.');
    await expect(people.add({ name: 'bad name', displayName: 'Bad', role: 'viewer', password: 'long enough pw' }, 'x')).rejects.toThrow(
      'A user name has',
    );
    await expect(people.add({ name: 'shorty', displayName: 'Shorty', role: 'viewer', password: 'short' }, 'x')).rejects.toThrow(
      'at least 12',
    );
    // The last admin who can sign in stays one.
    await expect(people.setRole(ids.alice!, 'viewer', 'x')).rejects.toThrow('the team needs at least one admin who can sign in');
    await expect(people.setDisabled(ids.alice!, true, 'x')).rejects.toThrow('the team needs at least one admin who can sign in');
  });

  it('a password reset ends the sessions and lifts a lock', async () => {
    for (let i = 0; i < 5; i++) await people.signInWithPassword('cleo', 'wrong password!', client);
    expect(await people.signInWithPassword('cleo', 'cleo password 1', client)).toMatchObject({ reason: 'locked' });
    await people.resetPassword((await people.store.byName('cleo'))!.id, 'a brand new password', 'alice (Alice Admin)');
    expect(await people.signInWithPassword('cleo', 'cleo password 1', client)).toMatchObject({ reason: 'wrong' });
    expect((await people.signInWithPassword('cleo', 'a brand new password', client)).ok).toBe(true);
  });

  it('leave an audit chain that verifies, with every person hashed into it', async () => {
    const v = await audit.verify();
    expect(v.ok).toBe(true);
    // An edited role in an entry breaks the chain (the person is in the hash).
    const seq = (await entries('sign-in')).find((e) => e.person)!.seq;
    await db.query('ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_update');
    await db.query("UPDATE audit_log SET role = 'admin' WHERE seq = $1", [seq]);
    await db.query('ALTER TABLE audit_log ENABLE TRIGGER audit_log_no_update');
    const broken = await audit.verify();
    expect(broken.ok).toBe(false);
    expect(!broken.ok && broken.brokenAt).toBe(seq);
  });
});
