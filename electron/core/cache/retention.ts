import { deidentifiedRecord, ENDED_STATUSES, POST_USAGE_ACTIONS, retentionOf } from '../data/retention.js';
import type { RetentionResult } from '../data/port.js';
import type { AuditLog } from './audit-log.js';
import type { Db } from './db.js';

const list = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');

/** CDR retention in the cache (data/retention.ts says what it does and in which order). */
export function applyRetention(
  db: Db,
  audit: AuditLog,
  now: () => Date = () => new Date(),
  operator = 'retention (automatic)',
): RetentionResult[] {
  const due = db
    .prepare<[], { consentId: string; status: string; postUsageAction: string }>(
      // From the consents that hold data (few: the data index names them), not from every ended
      // consent (a third of 100,000 read after each sync, 25 MiB of pages to say there is nothing).
      `SELECT c.consent_id AS consentId, c.status, c.post_usage_action AS postUsageAction
         FROM (SELECT DISTINCT consent_id FROM data_records WHERE consent_id IS NOT NULL) held
         CROSS JOIN consents c ON c.consent_id = held.consent_id
       WHERE c.status IN (${list(ENDED_STATUSES)}) AND c.post_usage_action IN (${list(POST_USAGE_ACTIONS)})
         AND EXISTS (SELECT 1 FROM data_records d WHERE d.consent_id = c.consent_id AND d.deidentified = 0)
       ORDER BY c.status, c.sharing_end_date, c.consent_id`,
    )
    .all();
  // After every sync, mostly with nothing due: nothing more is prepared then.
  if (!due.length) return [];
  const kindsOf = db.prepare<[string], { kind: string; n: number }>(
    'SELECT kind, count(*) AS n FROM data_records WHERE consent_id = ? GROUP BY kind ORDER BY kind',
  );
  const remove = db.prepare<[string]>('DELETE FROM data_records WHERE consent_id = ?');
  const recordsOf = db.prepare<[string], { kind: string; record_id: string; raw: string; normalized: string | null }>(
    'SELECT kind, record_id, raw, normalized FROM data_records WHERE consent_id = ?',
  );
  const update = db.prepare(
    'UPDATE data_records SET record_id = ?, consent_id = NULL, raw = ?, normalized = ?, notes = NULL, deidentified = 1 WHERE kind = ? AND record_id = ?',
  );
  const log = db.prepare(
    'INSERT INTO retention_log (consent_id, action, records, kinds, reason, at) VALUES (@consent_id, @action, @records, @kinds, @reason, @at)',
  );
  return due.map((c) =>
    db.transaction(() => {
      const done = retentionOf({ ...c, kinds: kindsOf.all(c.consentId) }, operator, now());
      if (done.action === 'deleted') remove.run(c.consentId);
      else
        for (const r of recordsOf.all(c.consentId)) {
          const d = deidentifiedRecord({ raw: JSON.parse(r.raw), normalized: r.normalized && JSON.parse(r.normalized) });
          update.run(d.recordId, JSON.stringify(d.raw), d.normalized ? JSON.stringify(d.normalized) : null, r.kind, r.record_id);
        }
      log.run(done.log);
      audit.append(done.audit);
      return done.result;
    })(),
  );
}
