import { createHash } from 'node:crypto';
import { lastEndedMonth, type Month } from '../../../../shared/reports/month.js';
import { canonicalTimeZone } from '../../../../shared/time/zone.js';
import type { AuditEntry } from '../../audit/port.js';
import { CoreError } from '../../errors.js';
import { csvRows } from '../../exports/csv.js';
import type { Logger } from '../../log.js';
import { complianceCsvRows, complianceHtml, complianceReport } from '../compliance.js';
import { localPeriod } from '../period.js';
import type { ReportStore } from '../port.js';
import type { MonthlyPack, MonthlyPackStore, MonthlySchedule } from './port.js';

/** Who the audit log names for the pack the console made by itself. */
export const PACK_OPERATOR = 'CDR Console (reports)';

/** A pack's e-mail: to the alert e-mail's recipients, with the pack's two files. */
export type PackMailer = (mail: {
  /** The console's screen it is kept on, for a link. */
  screen: string;
  subject: string;
  text: string;
  attachments: { filename: string; content: string; contentType: string }[];
}) => Promise<{ ok: boolean; detail: string } | null>;

export interface MonthlyPackDeps {
  store: MonthlyPackStore;
  reports: ReportStore;
  clock: () => Date;
  log: Logger;
  /** When the last sync that stored the consents and events whole finished (ISO; null: none yet). */
  syncedAt(): Promise<string | null>;
  /** Sends a pack by e-mail; null when no e-mail is set up. */
  mail: PackMailer;
  about: { profile: string; appVersion: string };
}

/** The file names of a month's pack. */
export const packFileName = (period: string, format: 'html' | 'csv') => `cdr-compliance-pack-${period}.${format}`;

/**
 * The monthly compliance pack (issue 38): when scheduled, the last ended month's compliance report
 * (the Reports screen's figures for the month, in the schedule's zone) is made on the first check
 * after the month ends and the cache was synced after it — at start (the catch-up after a restart),
 * after every sync and every five minutes — once across a team (the month is the key), kept whole
 * (HTML and CSV, the HTML's SHA-256 in the audit log) and e-mailed to the alert e-mail's recipients.
 */
export class MonthlyPackService {
  private running: Promise<MonthlyPack | null> | null = null;
  /** Stopped for good (the core is closing): no pack is made against a store being closed. */
  private stopped = false;

  constructor(private readonly deps: MonthlyPackDeps) {}

  /** Turns the schedule on or off, in a zone's months. */
  async setSchedule(enabled: boolean, timeZone: string, by: string): Promise<MonthlySchedule> {
    const zone = canonicalTimeZone(timeZone);
    if (!zone)
      throw new CoreError('INVALID_INPUT', `${timeZone} is not a time zone the console knows (an IANA name, such as Australia/Sydney).`);
    const at = this.deps.clock().toISOString();
    return this.deps.store.setSchedule(
      { enabled, timeZone: zone, changedBy: by, changedAt: at },
      entry(
        by,
        'report:schedule',
        enabled
          ? `monthly compliance pack scheduled: each month's, in ${zone}, on the first day after it`
          : 'monthly compliance pack no longer scheduled',
      ),
    );
  }

  /** The last ended month's pack, made now when scheduled, not made yet and synced since; one run at a time. */
  catchUp(): Promise<MonthlyPack | null> {
    if (this.stopped) return Promise.resolve(null);
    this.running ??= this.makeDue().finally(() => (this.running = null));
    return this.running;
  }

  private async makeDue(): Promise<MonthlyPack | null> {
    const schedule = await this.deps.store.schedule();
    if (!schedule?.enabled) return null;
    const m = lastEndedMonth(this.deps.clock(), schedule.timeZone);
    if (await this.deps.store.get(m.id)) return null;
    const synced = await this.deps.syncedAt();
    if (synced === null || Date.parse(synced) < Date.parse(m.to)) return null;
    return this.make(m, PACK_OPERATOR);
  }

  /** Makes a month's pack unless it was made already (here or by another server), and e-mails it. */
  async make(m: Month, by: string): Promise<MonthlyPack | null> {
    const now = this.deps.clock();
    const report = await complianceReport(this.deps.reports, m, now);
    const period = localPeriod(report.from, report.to, m.timeZone);
    const html = complianceHtml(report, period, { profile: this.deps.about.profile, operator: by, appVersion: this.deps.about.appVersion });
    const csv = csvRows(complianceCsvRows(report, period));
    const sha256 = createHash('sha256').update(html).digest('hex');
    const made = await this.deps.store.make(
      { period: m.id, timeZone: m.timeZone, from: m.from, to: m.to, madeAt: now.toISOString(), madeBy: by, html, csv, sha256, sent: null },
      entry(by, 'report:monthly-pack', `monthly compliance pack for ${m.text} (${m.timeZone}) made: sha256 ${sha256}`),
    );
    if (!made) return null;
    try {
      const sent = await this.deps.mail({
        screen: '/reports',
        subject: `[CDR Console] Compliance pack: ${m.text}`,
        text: [
          `The compliance report for ${m.text} (${period.text}, ${m.timeZone}), made ${made.madeAt} (UTC).`,
          `Attached as HTML (SHA-256 ${sha256}) and CSV; also kept in the console under Compliance reports.`,
        ].join('\n'),
        attachments: [
          { filename: packFileName(m.id, 'html'), content: html, contentType: 'text/html; charset=utf-8' },
          { filename: packFileName(m.id, 'csv'), content: csv, contentType: 'text/csv; charset=utf-8' },
        ],
      });
      if (!sent) return made;
      await this.deps.store.sent(m.id, sent.detail);
      return { ...made, sent: sent.detail };
    } catch (e) {
      this.deps.log.error(`monthly compliance pack for ${m.text}: e-mail failed: ${(e as Error).message}`);
      return made;
    }
  }

  stop(): void {
    this.stopped = true;
  }

  /** A month's pack as stored, or why there is none. */
  async get(period: string): Promise<MonthlyPack> {
    const pack = await this.deps.store.get(period);
    if (!pack) throw new CoreError('NOT_FOUND', `There is no compliance pack for ${period}.`);
    return pack;
  }
}

const entry = (operator: string, action: string, result: string): AuditEntry => ({ operator, action, target: null, reason: null, result });
