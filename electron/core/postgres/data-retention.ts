import { deidentifiedRecord, ENDED_STATUSES, POST_USAGE_ACTIONS, retentionOf } from '../data/retention.js';
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

/**
 * CDR retention in the team store (data/retention.ts says what it does and in which order). The
 * consent's row is locked and the condition checked again inside its transaction: two servers
 * running retention at once treat each consent once.
 */
export async function applyRetention(db: PgDb, opts: PgDataOptions, operator: string): Promise<RetentionResult[]> {
  const due = await db.query<{ consent_id: string }>(
    `SELECT c.consent_id FROM consents c
     WHERE c.status = ANY($1::text[]) AND c.post_usage_action = ANY($2::text[])
       AND EXISTS (SELECT 1 FROM data_records d WHERE d.consent_id = c.consent_id AND NOT d.deidentified)
     ORDER BY c.status COLLATE "C", c.sharing_end_date COLLATE "C" NULLS FIRST, c.consent_id COLLATE "C"`,
    [ENDED_STATUSES, POST_USAGE_ACTIONS],
  );
  const results: RetentionResult[] = [];
  for (const { consent_id: consentId } of due) {
    const result = await db.tx(async (tx) => {
      const c = await tx.one<{ status: string; postUsageAction: string }>(
        `SELECT status, post_usage_action AS "postUsageAction" FROM consents c
         WHERE consent_id = $1 AND status = ANY($2::text[]) AND post_usage_action = ANY($3::text[])
           AND EXISTS (SELECT 1 FROM data_records d WHERE d.consent_id = c.consent_id AND NOT d.deidentified)
         FOR UPDATE`,
        [consentId, ENDED_STATUSES, POST_USAGE_ACTIONS],
      );
      if (!c) return undefined; // treated meanwhile
      const kinds = await tx.query<{ kind: string; n: number }>(
        'SELECT kind, count(*) AS n FROM data_records WHERE consent_id = $1 GROUP BY kind ORDER BY kind COLLATE "C"',
        [consentId],
      );
      const done = retentionOf({ consentId, ...c, kinds }, operator, opts.now());
      if (done.action === 'deleted') await tx.query('DELETE FROM data_records WHERE consent_id = $1', [consentId]);
      else
        for (;;) {
          const rows = await tx.query<{ kind: string; record_id: string; raw: unknown; normalized: unknown }>(
            'SELECT kind, record_id, raw, normalized FROM data_records WHERE consent_id = $1 LIMIT $2',
            [consentId, BATCH],
          );
          if (!rows.length) break;
          // The transaction columns go with the payload.
          await tx.query(
            `UPDATE data_records d SET record_id = u.id, consent_id = NULL, raw = u.raw, normalized = u.normalized, notes = NULL,
               deidentified = true, tx_words = NULL, tx_account = NULL, tx_status = NULL, tx_type = NULL, tx_at = NULL, tx_cents = NULL
             FROM json_to_recordset($1::json) AS u(kind text, old text, id text, raw json, normalized json)
             WHERE d.kind = u.kind AND d.record_id = u.old`,
            [
              JSON.stringify(
                rows.map((r) => {
                  const d = deidentifiedRecord(r);
                  return { kind: r.kind, old: r.record_id, id: d.recordId, raw: d.raw, normalized: d.normalized };
                }),
              ),
            ],
          );
        }
      await tx.query('INSERT INTO retention_log (consent_id, action, records, kinds, reason, at) VALUES ($1, $2, $3, $4, $5, $6)', [
        done.log.consent_id,
        done.log.action,
        done.log.records,
        done.log.kinds,
        done.log.reason,
        done.log.at,
      ]);
      await opts.audit(tx, done.audit);
      return done.result;
    });
    if (result) results.push(result);
  }
  return results;
}
