import { windowText, type AlertParams } from '../../../shared/alerts/alerts.js';
import { WEBHOOK_FAILURES } from '../../../shared/consents/webhooks.js';
import type { SyncSummary } from '../../../shared/ipc/contract.js';
import type { AlertRule } from './port.js';

/** What the rules read, from the stores (the service gives it; tests may give their own). */
export interface Signals {
  /** Events of these types at or after `from` (ISO); with `dataHolderBrandId`, of that data holder's consents only. */
  events(types: readonly string[], from: string, dataHolderBrandId?: string): Promise<number>;
  /** Active consents whose sharing ends in [from, to). */
  expiring(from: string, to: string): Promise<number>;
  /** The last sync's summary (null: none yet). */
  lastSync(): Promise<SyncSummary | null>;
  /** The audit chain's verification. */
  audit(): Promise<{ ok: true } | { ok: false; problem: string; brokenAt: number }>;
  /** The last ended half-year's rule 9.4 report waiting for sign-off, within its 30 days (made first if it is not). */
  reportAwaiting(): Promise<Finding>;
}

/** What a rule found: firing (with what, in words) or not. */
export type Finding = { firing: true; summary: string } | { firing: false; summary: string };

const MINUTE = 60_000;
/** "1 consent", "7 consents" (the core's words are English; the screens put them as they are). */
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Evaluates one rule at `now` against the signals. */
export async function evaluate(rule: AlertRule, signals: Signals, now: Date): Promise<Finding> {
  const p: AlertParams = rule.params;
  const since = (minutes: number) => new Date(now.getTime() - minutes * MINUTE).toISOString();
  // A rule that watches one data holder counts its consents' events, and says so.
  const holder = p.dataHolder?.id;
  const count = (types: readonly string[], from: string) => signals.events(types, from, holder);
  const at = p.dataHolder ? ` at ${p.dataHolder.name}` : '';
  switch (rule.kind) {
    case 'webhook-failures': {
      const from = since(p.windowMinutes!);
      const [failed, sent] = await Promise.all([count(WEBHOOK_FAILURES, from), count(['WEBHOOK_SENT'], from)]);
      const deliveries = failed + sent;
      const rate = deliveries ? Math.round((failed / deliveries) * 100) : 0;
      const summary = `${plural(failed, 'webhook delivery', 'webhook deliveries')}${at} failed in the last ${windowText(p.windowMinutes!)} (${rate}% of ${deliveries})`;
      const byCount = failed >= p.atLeast!;
      const byRate = p.ratePercent !== undefined && failed > 0 && rate >= p.ratePercent && failed >= Math.min(p.atLeast!, 3);
      return { firing: byCount || byRate, summary };
    }
    case 'max-retries': {
      const n = await count(['WEBHOOK_MAX_RETRIES_REACHED'], since(p.windowMinutes!));
      return {
        firing: n >= p.atLeast!,
        summary: `${plural(n, 'webhook delivery', 'webhook deliveries')}${at} reached max retries in the last ${windowText(p.windowMinutes!)}`,
      };
    }
    case 'withdrawal-spike': {
      const n = await count(['REVOKED'], since(p.windowMinutes!));
      return {
        firing: n >= p.atLeast!,
        summary: `${plural(n, 'consent', 'consents')}${at} withdrawn in the last ${windowText(p.windowMinutes!)}`,
      };
    }
    case 'expiring-consents': {
      const n = await signals.expiring(now.toISOString(), new Date(now.getTime() + p.withinDays! * 1440 * MINUTE).toISOString());
      return {
        firing: n > 0,
        summary: `${plural(n, 'active consent', 'active consents')} ${n === 1 ? 'ends' : 'end'} sharing within ${plural(p.withinDays!, 'day', 'days')}`,
      };
    }
    case 'sync-stale': {
      const last = await signals.lastSync();
      if (!last) return { firing: true, summary: 'No sync has finished yet' };
      if (last.failures.length)
        return {
          firing: true,
          summary: `The last sync (${last.finishedAt}) failed: ${last.failures.map((f) => `${f.phase}: ${f.reason}`).join('; ')}`,
        };
      const age = now.getTime() - Date.parse(last.finishedAt);
      const hours = Math.floor(age / (60 * MINUTE));
      return age > p.hours! * 60 * MINUTE
        ? { firing: true, summary: `No good sync for ${plural(hours, 'hour', 'hours')} (the last finished ${last.finishedAt})` }
        : { firing: false, summary: `The last sync finished well at ${last.finishedAt}` };
    }
    case 'audit-chain': {
      const v = await signals.audit();
      return v.ok
        ? { firing: false, summary: 'The audit chain verifies' }
        : { firing: true, summary: `The audit chain is broken at entry ${v.brokenAt}: ${v.problem}` };
    }
    case 'report-unsigned':
      return signals.reportAwaiting();
  }
}
