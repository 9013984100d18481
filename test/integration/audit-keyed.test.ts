import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextRecord } from '../../electron/core/audit/chain.js';
import { AUDIT_SIGNING_SECRET, makeCheckpoint, newSigningKey } from '../../electron/core/audit/keying.js';
import type { AuditEntry, AuditStore } from '../../electron/core/audit/port.js';
import { pgAuditStore, type TeamAuditKeys } from '../../electron/core/postgres/audit.js';
import { PgDb } from '../../electron/core/postgres/db.js';
import { migrate } from '../../electron/core/postgres/migrations.js';
import { prepareAppRole } from '../../electron/core/postgres/roles.js';
import { createKeyFileCipher } from '../../electron/core/secrets/cipher.js';
import { SecretVault } from '../../electron/core/secrets/vault.js';
import { teamAuditKeys } from '../../electron/team/audit-keys.js';
import { runWithRequest } from '../../electron/ipc/request-context.js';
import { freshDatabase, type TestDatabase } from '../helpers/pg.js';
import { tempDir } from '../helpers/temp.js';

/**
 * The team's audit log under a key the database never holds (issue 35). Before, the chain was an
 * unkeyed SHA-256 chain and the server's database role could INSERT: an entry appended with a
 * correctly computed hash, naming another person and a revoke, passed `audit verify` and showed on
 * the Audit screen as theirs. Now it is found, and a signed checkpoint kept elsewhere proves that
 * nothing before it changed.
 */
let database: TestDatabase;
let owner: PgDb;
let app: PgDb;
let keys: TeamAuditKeys;
let vault: SecretVault;
const now = () => new Date();
const entry = (action: string, result = 'ok'): AuditEntry => ({
  operator: 'tess (Tess Team)',
  action,
  target: 'consent:c-1',
  reason: null,
  result,
});

beforeAll(async () => {
  database = await freshDatabase();
  owner = new PgDb(database.url, { max: 2 });
  await migrate(owner);
  app = new PgDb((await prepareAppRole(database.url)).url, { max: 4 });
  const dir = tempDir();
  vault = new SecretVault(dir, createKeyFileCipher(dir));
}, 60_000);
afterAll(async () => {
  await app?.close();
  await owner?.close();
  await database?.drop();
});

/** What someone holding only the server's database role can do: compute the next entry's hash and INSERT it. */
async function forge(mac: string | null): Promise<number> {
  const head = (await app.one<{ seq: string; hash: string }>(
    "SELECT seq, hash FROM audit_log WHERE chain = 'team' ORDER BY seq DESC LIMIT 1",
  ))!;
  const record = nextRecord(
    { operator: 'cleo (Cleo Compliance)', action: 'revoke', target: 'consent:c-9', reason: 'Consumer asked', result: 'revoked' },
    { seq: Number(head.seq), hash: head.hash },
    new Date().toISOString(),
    '10.0.0.9 Mozilla/5.0',
    { userId: 'u-cleo', displayName: 'Cleo Compliance', role: 'compliance', method: 'password' },
  );
  await app.query(
    `INSERT INTO audit_log (chain, seq, at, operator, action, target, reason, result, prev_hash, hash, client, user_id, display_name, role, auth_method, mac, key_id)
     VALUES ('team', $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
    [
      record.seq,
      record.at,
      record.operator,
      record.action,
      record.target,
      record.reason,
      record.result,
      record.prevHash,
      record.hash,
      record.client,
      'u-cleo',
      'Cleo Compliance',
      'compliance',
      'password',
      mac,
      mac ? keys.mac.id : null,
    ],
  );
  return record.seq;
}

describe('a keyed team audit log', () => {
  let keyed: AuditStore;

  it('keys an existing unkeyed log from the next entry, saying so in an entry of its own; the older ones stay verifiable', async () => {
    const old = pgAuditStore(app, now); // a server of the version before
    for (let i = 0; i < 3; i++) await old.append(entry('revoke'));
    // A command line with this data directory before any server ran: no keys made, nothing keyed.
    expect(await teamAuditKeys(vault, app)).toBeUndefined();
    keys = await teamAuditKeys(vault, app, { create: true });
    keyed = pgAuditStore(app, now, undefined, keys);
    await runWithRequest({}, () => keyed.append(entry('update')));
    const all = await keyed.entries();
    expect(all.map((e) => e.action)).toEqual(['revoke', 'revoke', 'revoke', 'audit:keyed', 'update']);
    expect(all[3]!.result).toMatch(/^entries from 4 on carry an HMAC-SHA-256 under the audit key [0-9a-f]{16}; the 3 before carry none/);
    expect(all.slice(3).every((e) => /^[0-9a-f]{64}$/.test(e.mac ?? '') && e.keyId === keys.mac.id)).toBe(true);
    expect(await keyed.verify()).toEqual({ ok: true, entries: 5, keyed: { from: 4, unkeyed: 3, checked: true, keyId: keys.mac.id } });
    // Switched once: the next entries just carry their MAC.
    await keyed.append(entry('extend'));
    expect((await keyed.entries()).filter((e) => e.action === 'audit:keyed')).toHaveLength(1);
  });

  it('finds an entry the database role appended with a correct hash, naming another person: without a MAC, or with a made-up one', async () => {
    const before = await keyed.verify();
    expect(before.ok).toBe(true);
    const bare = await forge(null);
    const withoutKey = await keyed.verify();
    expect(withoutKey).toMatchObject({ ok: false, brokenAt: bare });
    expect(!withoutKey.ok && withoutKey.problem).toBe(
      `entry ${bare} carries no MAC though the log is keyed from entry 4: it was written without the audit key (by someone with the database's role, not by a team server)`,
    );
    // A server appends after it (its hash links): the forgery stays found.
    await keyed.append(entry('update'));
    const madeUp = await forge('ab'.repeat(32));
    const v = await keyed.verify();
    expect(!v.ok && v.problems).toEqual([
      expect.stringMatching(new RegExp(`^entry ${bare} carries no MAC`)),
      `entry ${madeUp}'s MAC does not match: it was written or changed without the audit key (by someone with the database's role, not by a team server)`,
    ]);
    // Whoever does not hold the key cannot tell a right MAC from a wrong one, and says so.
    expect(await pgAuditStore(app, now).verify()).toMatchObject({ keyed: { from: 4, checked: false, keyId: null } });
  });

  it('a checkpoint kept elsewhere proves nothing up to it changed; a changed one, or one signed by another key, is refused', async () => {
    const checkpoint = await keyed.checkpoint!();
    const head = (await keyed.entries()).at(-1)!;
    expect(checkpoint).toMatchObject({ format: 'cdr-console-audit-checkpoint/1', chain: 'team', seq: head.seq, hash: head.hash });
    const held = await keyed.verify({ checkpoint });
    expect(held.checkpoint).toEqual({ seq: head.seq, hash: head.hash, madeAt: checkpoint.madeAt, ok: true, problem: null });
    // Its seq moved to an earlier entry: the signature no longer holds.
    expect((await keyed.verify({ checkpoint: { ...checkpoint, seq: 2 } })).checkpoint).toMatchObject({
      ok: false,
      problem: 'the checkpoint’s signature does not hold: the file was changed after it was made',
    });
    // Made with another key (someone's own): refused, whatever it says.
    const other = makeCheckpoint({ seq: head.seq, hash: head.hash, at: head.at }, newSigningKey(), new Date());
    expect((await keyed.verify({ checkpoint: other })).checkpoint?.problem).toMatch(/signed with another key than this team’s/);
    // A checkpoint of an entry that is not in the log as it is now (a log replaced wholesale).
    const replaced = makeCheckpoint({ seq: 2, hash: 'f'.repeat(64), at: head.at }, vault.get(AUDIT_SIGNING_SECRET)!, new Date());
    expect((await keyed.verify({ checkpoint: replaced })).checkpoint?.problem).toMatch(/^entry 2 is not the one checkpointed on/);
  });

  it('a data directory whose vault holds another key, or none, is refused against a keyed log rather than writing entries that would not verify', async () => {
    const dir = tempDir();
    const stranger = new SecretVault(dir, createKeyFileCipher(dir));
    await expect(teamAuditKeys(stranger, app)).rejects.toThrow(/holds no audit key: use the data directory of the team's servers/);
    await expect(teamAuditKeys(stranger, app, { create: true })).rejects.toThrow(/holds no audit key/);
    stranger.set('team-audit-mac-key', 'another key altogether');
    await expect(teamAuditKeys(stranger, app, { create: true })).rejects.toThrow(
      /keyed under key [0-9a-f]{16}, and this data directory's vault holds key/,
    );
  });
});
