import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { anchorFileOf, AuditAnchorFile } from '../core/audit/audit-anchor.js';
import type { AuditRecord, AuditVerification } from '../core/audit/port.js';
import { AuditLog } from '../core/cache/audit-log.js';
import { openCache } from '../core/cache/database.js';
import { cacheFileOf } from '../core/cache/profile-cache.js';
import { loadProfiles, pickProfile } from '../core/config/profiles.js';
import { appendAudit, type TeamAuditKeys } from '../core/postgres/audit.js';
import { PgDb } from '../core/postgres/db.js';
import { createKeyFileCipher } from '../core/secrets/cipher.js';
import { SecretVault, secretNames } from '../core/secrets/vault.js';

/**
 * `cli team import-audit --from DIR`: a solo console's audit log moved into the team store, so no
 * history is lost by moving to team mode. The log is verified where it is (its chain and its head
 * anchor), then copied as a chain of its own (`import:<id>`), entry for entry with its original
 * hashes, so it stays verifiable as it was written; `audit_chains` says where it came from. The
 * team's own chain records the import (what, from where, how many entries, the imported head's
 * hash), which anchors the imported chain in the team's. The solo console's files are only read:
 * a break found there is reported, not recorded in its anchor.
 */
export interface ImportResult {
  chain: string;
  entries: number;
  headHash: string;
  origin: string;
  verification: AuditVerification;
}

export function readSoloAudit(
  dataDir: string,
  profileId?: string,
): { records: AuditRecord[]; verification: AuditVerification; origin: string } {
  const profile = pickProfile(loadProfiles(dataDir), profileId);
  const file = cacheFileOf(dataDir, profile.id);
  if (!existsSync(file)) throw new Error(`There is no cache for profile "${profile.id}" in ${dataDir}: nothing to import.`);
  const vault = new SecretVault(dataDir, createKeyFileCipher(dataDir));
  const key = vault.get(secretNames.cacheKey(profile.id));
  if (!key) throw new Error(`The vault in ${dataDir} has no key for profile "${profile.id}"'s cache: it cannot be read.`);
  const anchorKey = vault.get(secretNames.auditAnchorKey(profile.id));
  const db = openCache(file, key, { readonly: true });
  try {
    const log = new AuditLog(
      db,
      () => new Date(),
      anchorKey ? { file: new AuditAnchorFile(anchorFileOf(file), anchorKey), fresh: false, readOnly: true } : undefined,
    );
    return {
      records: log.entries(),
      verification: log.verify(),
      origin: `the solo console in ${dataDir}, profile "${profile.id}" (${profile.name})`,
    };
  } finally {
    db.close();
  }
}

export async function importSoloAudit(
  url: string,
  from: { dataDir: string; profileId?: string },
  opts: { acceptBroken?: boolean; operator: string; now?: () => Date; auditKeys?: (db: PgDb) => Promise<TeamAuditKeys | undefined> },
): Promise<ImportResult> {
  const { records, verification, origin } = readSoloAudit(from.dataDir, from.profileId);
  if (!verification.ok && !opts.acceptBroken)
    throw new Error(
      `The audit log to import does not verify (${verification.problems.join('; ')}). Nothing was imported. ` +
        'Import it anyway with --accept-broken: it is then kept as found, and its problems are recorded with it.',
    );
  if (!records.length) throw new Error(`The audit log of ${origin} is empty: nothing to import.`);
  const chain = `import:${randomUUID()}`;
  const head = records.at(-1)!;
  const db = new PgDb(url, { max: 1, applicationName: 'cdr-console cli' });
  try {
    // The team chain's entry of the import is keyed like every other (the team's data directory's key).
    const keys = await opts.auditKeys?.(db);
    await db.tx(async (tx) => {
      await tx.copy(
        'audit_log',
        ['chain', 'seq', 'at', 'operator', 'action', 'target', 'reason', 'result', 'prev_hash', 'hash'],
        records.map((r) => [chain, r.seq, r.at, r.operator, r.action, r.target, r.reason, r.result, r.prevHash, r.hash]),
      );
      await tx.query('INSERT INTO audit_chains (chain, origin, entries, head_hash) VALUES ($1, $2, $3, $4)', [
        chain,
        verification.ok ? origin : `${origin}; imported although it did not verify: ${verification.problems.join('; ')}`,
        records.length,
        head.hash,
      ]);
      await appendAudit(
        tx,
        {
          operator: opts.operator,
          action: 'import-audit',
          target: chain,
          reason: null,
          result: `imported ${records.length} entries from ${origin}; head ${head.seq} with hash ${head.hash}${verification.ok ? '' : '; it did not verify'}`,
        },
        opts.now ?? (() => new Date()),
        null,
        null,
        keys?.mac,
      );
    });
  } finally {
    await db.close();
  }
  return { chain, entries: records.length, headHash: head.hash, origin, verification };
}
