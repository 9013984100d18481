import { randomBytes } from 'node:crypto';
import { deidentify } from '../data/deidentify.js';
import type { RetentionResult } from '../data/port.js';
import type { AuditEntry, AuditRecord } from '../audit/port.js';
import type { PgDb, Tx } from './db.js';

export interface PgDataOptions {
  now: () => Date;
  /** Appends an audit entry inside the caller's transaction (retention audits each consent it treats). */
  audit: (tx: Tx, entry: AuditEntry) => Promise<AuditRecord>;
}

/** Records de-identified per statement. */
const BATCH = 1000;

const ENDED = ['REVOKED', 'EXPIRED'];
const ACTIONS = ['DELETION', 'DE_IDENTIFICATION'];

/**
 * CDR retention in the team store, as cache/retention.ts does it: the data of every ended consent
 * (REVOKED or EXPIRED) deleted if its post-usage action is DELETION, de-identified (the same
 * fields removed, a new key) if DE_IDENTIFICATION, each consent in its own transaction with its
 * retention log line and its audit entry. The consent's row is locked and the condition checked
 * again inside the transaction: two servers running retention at once treat each consent once.
 * Consents are treated in the order SQLite's plan reads them (its index on status and sharing end
 * date): expired before revoked, the longest ended first.
 */
export async function applyRetention(db: PgDb, opts: PgDataOptions, operator: string): Promise<RetentionResult[]> {
  const due = await db.query<{ consent_id: string }>(
    `SELECT c.consent_id FROM consents c
     WHERE c.status = ANY($1::text[]) AND c.post_usage_action = ANY($2::text[])
       AND EXISTS (SELECT 1 FROM data_records d WHERE d.consent_id = c.consent_id AND NOT d.deidentified)
     ORDER BY c.status COLLATE "C", c.sharing_end_date COLLATE "C" NULLS FIRST, c.consent_id COLLATE "C"`,
    [ENDED, ACTIONS],
  );
  const results: RetentionResult[] = [];
  for (const { consent_id: consentId } of due) {
    const result = await db.tx(async (tx) => {
      const c = await tx.one<{ status: string; post_usage_action: string }>(
        `SELECT status, post_usage_action FROM consents c
         WHERE consent_id = $1 AND status = ANY($2::text[]) AND post_usage_action = ANY($3::text[])
           AND EXISTS (SELECT 1 FROM data_records d WHERE d.consent_id = c.consent_id AND NOT d.deidentified)
         FOR UPDATE`,
        [consentId, ENDED, ACTIONS],
      );
      if (!c) return undefined; // treated meanwhile
      const kinds = await tx.query<{ kind: string; n: number }>(
        'SELECT kind, count(*) AS n FROM data_records WHERE consent_id = $1 GROUP BY kind ORDER BY kind',
        [consentId],
      );
      const records = kinds.reduce((a, k) => a + k.n, 0);
      const reason = `consent ${c.status.toLowerCase()}; post-usage action ${c.post_usage_action}`;
      let action: RetentionResult['action'];
      if (c.post_usage_action === 'DELETION') {
        await tx.query('DELETE FROM data_records WHERE consent_id = $1', [consentId]);
        action = 'deleted';
      } else {
        for (;;) {
          const rows = await tx.query<{ kind: string; record_id: string; raw: unknown; normalized: unknown }>(
            'SELECT kind, record_id, raw, normalized FROM data_records WHERE consent_id = $1 LIMIT $2',
            [consentId, BATCH],
          );
          if (!rows.length) break;
          // A new key too: some keys embed the consent id. The transaction columns go with the payload.
          await tx.query(
            `UPDATE data_records d SET record_id = u.id, consent_id = NULL, raw = u.raw, normalized = u.normalized, notes = NULL,
               deidentified = true, tx_words = NULL, tx_account = NULL, tx_status = NULL, tx_type = NULL, tx_at = NULL, tx_cents = NULL
             FROM json_to_recordset($1::json) AS u(kind text, old text, id text, raw json, normalized json)
             WHERE d.kind = u.kind AND d.record_id = u.old`,
            [
              JSON.stringify(
                rows.map((r) => ({
                  kind: r.kind,
                  old: r.record_id,
                  id: `deidentified:${randomBytes(12).toString('hex')}`,
                  raw: deidentify(r.raw),
                  normalized: r.normalized ? deidentify(r.normalized) : null,
                })),
              ),
            ],
          );
        }
        action = 'de-identified';
      }
      await tx.query('INSERT INTO retention_log (consent_id, action, records, kinds, reason, at) VALUES ($1, $2, $3, $4, $5, $6)', [
        consentId,
        action,
        records,
        kinds.map((k) => k.kind).join(','),
        reason,
        opts.now().toISOString(),
      ]);
      await opts.audit(tx, {
        operator,
        action: `retention:${action}`,
        target: consentId,
        reason,
        result: `${records} records (${kinds.map((k) => `${k.kind} ${k.n}`).join(', ')})`,
      });
      return { consentId, action, records, kinds: kinds.map((k) => k.kind) };
    });
    if (result) results.push(result);
  }
  return results;
}
