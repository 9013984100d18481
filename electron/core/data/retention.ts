import { randomBytes } from 'node:crypto';
import type { AuditEntry } from '../audit/port.js';
import { deidentify } from './deidentify.js';
import type { RetentionResult } from './port.js';

/**
 * CDR retention's rules, once for both stores (issue 37): when a consent has ended (REVOKED or
 * EXPIRED), its cached CDR data is deleted if its post-usage action is DELETION, or de-identified if
 * it is DE_IDENTIFICATION — at the next sync, automatically, each consent in its own transaction.
 * What was done is kept (consent, action, how many records of which kinds, why, when) in the
 * retention log and the audit log; the data itself is not. Consents are treated expired before
 * revoked, the longest ended first (by status, sharing end date, consent id; bytewise, NULLs first).
 * The stores (cache/retention.ts, postgres/data-retention.ts) find the consents due and write.
 */
export const ENDED_STATUSES: readonly string[] = ['REVOKED', 'EXPIRED'];

/** What each post-usage action does to the data of an ended consent. */
export const RETENTION_ACTIONS: Readonly<Record<string, RetentionResult['action']>> = {
  DELETION: 'deleted',
  DE_IDENTIFICATION: 'de-identified',
};
export const POST_USAGE_ACTIONS: readonly string[] = Object.keys(RETENTION_ACTIONS);

/** A consent due for retention, and how many of its records of each kind the store holds. */
export interface RetentionDue {
  consentId: string;
  status: string;
  postUsageAction: string;
  kinds: readonly { kind: string; n: number }[];
}

/** What retention does to one consent, and what it writes of it: the retention log's line, the audit entry, the result. */
export function retentionOf(c: RetentionDue, operator: string, at: Date) {
  const action = RETENTION_ACTIONS[c.postUsageAction]!;
  const records = c.kinds.reduce((a, k) => a + k.n, 0);
  const reason = `consent ${c.status.toLowerCase()}; post-usage action ${c.postUsageAction}`;
  const kinds = c.kinds.map((k) => k.kind);
  return {
    action,
    log: { consent_id: c.consentId, action, records, kinds: kinds.join(','), reason, at: at.toISOString() },
    audit: {
      operator,
      action: `retention:${action}`,
      target: c.consentId,
      reason,
      result: `${records} records (${c.kinds.map((k) => `${k.kind} ${k.n}`).join(', ')})`,
    } satisfies AuditEntry,
    result: { consentId: c.consentId, action, records, kinds } satisfies RetentionResult,
  };
}

/** A record de-identified: the identifying fields removed (deidentify.ts), and a new key (some keys embed the consent id). */
export function deidentifiedRecord(r: { raw: unknown; normalized: unknown }) {
  return {
    recordId: `deidentified:${randomBytes(12).toString('hex')}`,
    raw: deidentify(r.raw),
    normalized: r.normalized ? deidentify(r.normalized) : null,
  };
}
