import { randomBytes } from 'node:crypto';
import type { RetentionResult } from '../data/port.js';
import type { AuditLog } from './audit-log.js';
import { deidentify } from '../data/deidentify.js';
import type { Db } from './db.js';

/**
 * CDR retention: when a consent has ended (REVOKED or EXPIRED), its cached CDR data is deleted if
 * its post-usage action is DELETION, or de-identified if it is DE_IDENTIFICATION — at the next sync,
 * automatically. What was done is kept (consent, action, how many records of which kinds, why,
 * when) in the retention log and the audit log; the data itself is not.
 */
export function applyRetention(
  db: Db,
  audit: AuditLog,
  now: () => Date = () => new Date(),
  operator = 'retention (automatic)',
): RetentionResult[] {
  const due = db
    .prepare<[], { consent_id: string; status: string; post_usage_action: string }>(
      // From the consents that hold data (few: the data index names them), not from every ended
      // consent (a third of 100,000 read after each sync, 25 MiB of pages to say there is nothing).
      // In the order PostgreSQL's store treats them (data-retention.ts): the same results.
      `SELECT c.consent_id, c.status, c.post_usage_action
         FROM (SELECT DISTINCT consent_id FROM data_records WHERE consent_id IS NOT NULL) held
         CROSS JOIN consents c ON c.consent_id = held.consent_id
       WHERE c.status IN ('REVOKED', 'EXPIRED') AND c.post_usage_action IN ('DELETION', 'DE_IDENTIFICATION')
         AND EXISTS (SELECT 1 FROM data_records d WHERE d.consent_id = c.consent_id AND d.deidentified = 0)
       ORDER BY c.status, c.sharing_end_date, c.consent_id`,
    )
    .all();
  const results: RetentionResult[] = [];
  for (const c of due) {
    db.transaction(() => {
      const kinds = db
        .prepare<[string], { kind: string; n: number }>('SELECT kind, count(*) AS n FROM data_records WHERE consent_id = ? GROUP BY kind')
        .all(c.consent_id);
      const records = kinds.reduce((a, k) => a + k.n, 0);
      const reason = `consent ${c.status.toLowerCase()}; post-usage action ${c.post_usage_action}`;
      let action: RetentionResult['action'];
      if (c.post_usage_action === 'DELETION') {
        db.prepare('DELETE FROM data_records WHERE consent_id = ?').run(c.consent_id);
        action = 'deleted';
      } else {
        const rows = db
          .prepare<[string], { kind: string; record_id: string; raw: string; normalized: string | null }>(
            'SELECT kind, record_id, raw, normalized FROM data_records WHERE consent_id = ?',
          )
          .all(c.consent_id);
        const update = db.prepare(
          'UPDATE data_records SET record_id = ?, consent_id = NULL, raw = ?, normalized = ?, notes = NULL, deidentified = 1 WHERE kind = ? AND record_id = ?',
        );
        for (const r of rows) {
          // A new key too: some keys embed the consent id.
          update.run(
            `deidentified:${randomBytes(12).toString('hex')}`,
            JSON.stringify(deidentify(JSON.parse(r.raw))),
            r.normalized ? JSON.stringify(deidentify(JSON.parse(r.normalized))) : null,
            r.kind,
            r.record_id,
          );
        }
        action = 'de-identified';
      }
      db.prepare('INSERT INTO retention_log (consent_id, action, records, kinds, reason, at) VALUES (?, ?, ?, ?, ?, ?)').run(
        c.consent_id,
        action,
        records,
        kinds.map((k) => k.kind).join(','),
        reason,
        now().toISOString(),
      );
      audit.append({
        operator,
        action: `retention:${action}`,
        target: c.consent_id,
        reason,
        result: `${records} records (${kinds.map((k) => `${k.kind} ${k.n}`).join(', ')})`,
      });
      results.push({ consentId: c.consent_id, action, records, kinds: kinds.map((k) => k.kind) });
    })();
  }
  return results;
}
