import { AUDIT_MAC_SECRET, AUDIT_SIGNING_SECRET, auditKeyOf, newSigningKey } from '../core/audit/keying.js';
import type { TeamAuditKeys } from '../core/postgres/audit.js';
import type { PgDb } from '../core/postgres/db.js';
import type { SecretVault } from '../core/secrets/vault.js';

/**
 * The team's audit keys from the data directory's vault (keying.ts), which every server of the team
 * and the command line share (the same --data-dir). Made at the first start; a vault without them
 * facing a log already keyed under another key is refused, rather than writing entries `audit
 * verify` would then report as made without the team's key.
 */
export async function teamAuditKeys(vault: SecretVault, db: Pick<PgDb, 'one'>, opts: { create: true }): Promise<TeamAuditKeys>;
/**
 * The command line's: it uses the keys its data directory holds, and makes none (one made here,
 * in another data directory than the servers', would stop them at their next start). Without keys,
 * before the log is keyed, it writes as before; the servers key the log from their next entry.
 */
export async function teamAuditKeys(
  vault: SecretVault,
  db: Pick<PgDb, 'one'>,
  opts?: { create?: false },
): Promise<TeamAuditKeys | undefined>;
export async function teamAuditKeys(
  vault: SecretVault,
  db: Pick<PgDb, 'one'>,
  opts: { create?: boolean } = {},
): Promise<TeamAuditKeys | undefined> {
  const keyed = await db.one<{ key_id: string }>("SELECT key_id FROM audit_log WHERE chain = 'team' AND mac IS NOT NULL LIMIT 1");
  const have = vault.get(AUDIT_MAC_SECRET);
  if (!have && keyed)
    throw new Error(
      `The team's audit log is keyed (key ${keyed.key_id}), but this data directory's vault holds no audit key: use the data directory of the team's servers (--data-dir), which holds it.`,
    );
  if (!have && !opts.create) return undefined;
  const mac = auditKeyOf(have ?? vault.getOrCreate(AUDIT_MAC_SECRET));
  if (keyed && keyed.key_id !== mac.id)
    throw new Error(
      `The team's audit log is keyed under key ${keyed.key_id}, and this data directory's vault holds key ${mac.id}: use the data directory of the team's servers (--data-dir).`,
    );
  return { mac, signing: vault.getOrCreate(AUDIT_SIGNING_SECRET, newSigningKey) };
}
