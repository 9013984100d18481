import { createHash } from 'node:crypto';
import { CATEGORY_TEXT, OUTCOME_TEXT, type ComplaintCategory, type ComplaintOutcome } from '../../../../shared/complaints/complaints.js';
import type { Rule94Figure, Rule94Report } from '../../../../shared/ipc/contract.js';
import {
  ANSWER_FIELDS,
  REPORT_ZONE,
  daysLeft,
  halfYear,
  hasEnded,
  lastEndedHalfYear,
  signOffProblems,
  type Answers,
  type HalfYear,
} from '../../../../shared/reports/rule94.js';
import type { AuditEntry } from '../../audit/port.js';
import { CoreError } from '../../errors.js';
import type { ReportStore } from '../port.js';
import type { Rule94Change, Rule94Store, StoredRule94 } from './port.js';

/** Who the audit log names for a report the console made by itself. */
export const REPORTS_OPERATOR = 'CDR Console (reports)';

const CONSENT_EVENTS = ['GRANTED', 'EXTENDED', 'REVOKED', 'EXPIRED'] as const;

/**
 * Every figure of a half-year's rule 9.4 report the console can derive, each with how it was
 * counted and where its records are: consumers served and consumer data requests (collections) from
 * the cached consents and events; consents given, extended, withdrawn (by staff per the audit log,
 * else by the consumer or the data holder) and expired; complaints from the register by category,
 * outcome and external dispute body.
 */
export async function countRule94(stores: { reports: ReportStore; rule94: Rule94Store }, h: HalfYear): Promise<Rule94Figure[]> {
  const [served, perType, byStaff, requests, complaints] = await Promise.all([
    stores.rule94.consumersServed(h.from, h.to),
    stores.reports.eventsByType(h.from, h.to, CONSENT_EVENTS),
    stores.reports.audited('revoke', h.from, h.to, 'revoked'),
    stores.reports.collectionsByHolder(h.from, h.to),
    stores.rule94.complaints(h.firstDay, h.lastDay),
  ]);
  const events = (type: string) => perType.get(type) ?? 0;
  const withdrawn = events('REVOKED');
  const received = complaints.received.reduce((n, c) => n + c.count, 0);
  const resolved = complaints.resolved.reduce((n, c) => n + c.count, 0);
  const referred = complaints.referred.reduce((n, c) => n + c.count, 0);
  const inPeriod = `in the half-year (${h.text}, Australian time)`;
  /** A figure that counts the intermediary's events of one type in the half-year. */
  const ofEvents = (key: string, label: string, type: (typeof CONSENT_EVENTS)[number], value = events(type)): Rule94Figure => ({
    key,
    label,
    value,
    how: `The intermediary’s ${type} events ${inPeriod}.`,
    records: { screen: 'events', types: [type] },
  });
  return [
    {
      key: 'consumers-served',
      label: 'CDR consumers served',
      value: served,
      how: `Distinct consumer ids of the cached consents in force at some time ${inPeriod}: granted before its end, and not withdrawn or ended before its start.`,
      records: { screen: 'consents' },
    },
    {
      key: 'requests',
      label: 'Consumer data requests made',
      value: requests.reduce((n, c) => n + c.count, 0),
      how: `Data collections the intermediary completed for the recipient ${inPeriod} (its DATA_COLLECTION_COMPLETED events).`,
      records: { screen: 'events', types: ['DATA_COLLECTION_COMPLETED'] },
    },
    ...requests.slice(0, 50).map((c): Rule94Figure => ({
      key: `requests:${c.dataHolderName}`,
      label: `— to ${c.dataHolderName}`,
      value: c.count,
      how: 'Collections from this data holder.',
      records: { screen: 'events', types: ['DATA_COLLECTION_COMPLETED'] },
    })),
    ofEvents('granted', 'Consents given', 'GRANTED'),
    ofEvents('extended', 'Consents extended', 'EXTENDED'),
    ofEvents('withdrawn', 'Consents withdrawn', 'REVOKED', withdrawn),
    {
      key: 'withdrawn-staff',
      label: '— by staff, from this console',
      value: byStaff,
      how: 'Revocations that revoked, in the audit log.',
      records: { screen: 'audit', action: 'revoke' },
    },
    {
      key: 'withdrawn-other',
      label: '— by the consumer or the data holder',
      value: Math.max(0, withdrawn - byStaff),
      how: 'Withdrawals less those by staff: the intermediary’s events do not say which of the two.',
      records: { screen: 'events', types: ['REVOKED'] },
    },
    ofEvents('expired', 'Consents expired', 'EXPIRED'),
    {
      key: 'complaints-received',
      label: 'CDR complaints received',
      value: received,
      how: `Complaints in the register received ${inPeriod}.`,
      records: { screen: 'complaints' },
    },
    ...complaints.received.map((c): Rule94Figure => ({
      key: `complaints-received:${c.category}`,
      label: `— ${CATEGORY_TEXT[c.category as ComplaintCategory] ?? c.category}`,
      value: c.count,
      how: 'Received in the half-year, of this category.',
      records: { screen: 'complaints', category: c.category },
    })),
    {
      key: 'complaints-resolved',
      label: 'CDR complaints resolved',
      value: resolved,
      how: `Complaints in the register resolved ${inPeriod}, whenever received.`,
      records: { screen: 'complaints', status: 'resolved' },
    },
    ...complaints.resolved.map((c): Rule94Figure => ({
      key: `complaints-resolved:${c.outcome}`,
      label: `— ${OUTCOME_TEXT[c.outcome as ComplaintOutcome] ?? c.outcome}`,
      value: c.count,
      how: 'Resolved in the half-year with this outcome.',
      records: { screen: 'complaints', status: 'resolved' },
    })),
    {
      key: 'complaints-referred',
      label: 'Referred to external dispute resolution',
      value: referred,
      how: 'Complaints resolved in the half-year that name an external dispute body.',
      records: { screen: 'complaints', status: 'resolved' },
    },
    ...complaints.referred.map((c): Rule94Figure => ({
      key: `complaints-referred:${c.body}`,
      label: `— ${c.body}`,
      value: c.count,
      how: 'Referred to this body.',
      records: { screen: 'complaints', status: 'resolved' },
    })),
    {
      key: 'complaints-open',
      label: 'CDR complaints open at the end of the half-year',
      value: complaints.openAtEnd,
      how: 'Received on or before its last day and not resolved by then.',
      records: { screen: 'complaints' },
    },
  ];
}

/**
 * What a sign-off archives, in a fixed order: the hash in the report and in the audit log is of this
 * text, so the report read back can be checked against both.
 */
export function signedText(r: StoredRule94, sign: { signedBy: string; signedAt: string }): string {
  const h = halfYear(r.period)!;
  return JSON.stringify({
    report: 'CDR rule 9.4',
    period: r.period,
    text: h.text,
    from: h.from,
    to: h.to,
    timeZone: REPORT_ZONE,
    madeAt: r.madeAt,
    madeBy: r.madeBy,
    countedAt: r.countedAt,
    figures: r.figures.map((f) => ({ key: f.key, label: f.label, value: f.value, how: f.how })),
    answers: ANSWER_FIELDS.map((f) => [f.key, r.answers[f.key] ?? '']),
    signedBy: sign.signedBy,
    signedAt: sign.signedAt,
  });
}

export const sha256Of = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** A stored report as the contract gives it: its period's facts, and whether a signed one still hashes to what was signed. */
export function reportView(r: StoredRule94): Rule94Report {
  const h = halfYear(r.period)!;
  const intact =
    r.state !== 'signed' || (r.sha256 !== null && sha256Of(signedText(r, { signedBy: r.signedBy!, signedAt: r.signedAt! })) === r.sha256);
  return {
    period: r.period,
    from: h.from,
    to: h.to,
    firstDay: h.firstDay,
    lastDay: h.lastDay,
    text: h.text,
    dueOn: h.dueOn,
    state: r.state,
    madeAt: r.madeAt,
    madeBy: r.madeBy,
    countedAt: r.countedAt,
    figures: r.figures,
    answers: r.answers,
    signedBy: r.signedBy,
    signedAt: r.signedAt,
    sha256: r.sha256,
    intact,
    version: r.version,
  };
}

export interface Rule94Deps {
  stores: { reports: ReportStore; rule94: Rule94Store };
  clock: () => Date;
  /**
   * When the last sync that stored the consents and events whole finished (ISO; null: none yet).
   * The schedule makes a half-year's report only from a cache synced after it ended: a console opened
   * for the first time, or after months closed, would otherwise count from what it had.
   */
  syncedAt(): Promise<string | null>;
}

/**
 * The rule 9.4 reports at work: the last ended half-year's report made on the first check after it
 * ends (at start — the catch-up after a restart — and with every alert check, after each sync and
 * every five minutes), once across a team; a person prepares an older one, answers what the console
 * cannot know, counts again while it is a draft, and signs it off, which archives it with its hash.
 */
export class Rule94Service {
  constructor(private readonly deps: Rule94Deps) {}

  /**
   * The last ended half-year's report, made now if it is not yet and the cache was synced since the
   * half-year ended; null while it waits for that sync.
   */
  async catchUp(): Promise<StoredRule94 | null> {
    const h = lastEndedHalfYear(this.deps.clock());
    const made = await this.deps.stores.rule94.get(h.id);
    if (made) return made;
    const synced = await this.deps.syncedAt();
    return synced !== null && Date.parse(synced) >= Date.parse(h.to) ? this.make(h, REPORTS_OPERATOR) : null;
  }

  /** Makes a half-year's report (counted now) unless made already: the one stored either way. */
  async make(h: HalfYear, by: string): Promise<StoredRule94> {
    const { rule94 } = this.deps.stores;
    const at = this.deps.clock().toISOString();
    const figures = await countRule94(this.deps.stores, h);
    const made = await rule94.make(
      {
        period: h.id,
        state: 'draft',
        figures,
        answers: {},
        madeAt: at,
        madeBy: by,
        countedAt: at,
        signedBy: null,
        signedAt: null,
        sha256: null,
        version: 1,
      },
      () => entry(by, 'rule94:made', `Rule 9.4 report for ${h.text} made: ${summaryOf(figures)}; due ${h.dueOn}`),
    );
    return made ?? (await rule94.get(h.id))!;
  }

  /** Prepares an ended half-year's report by hand (one the schedule did not make: the console was not in use then). */
  async prepare(period: string, by: string): Promise<StoredRule94> {
    const h = this.ended(period);
    const existing = await this.deps.stores.rule94.get(h.id);
    return existing ?? this.make(h, by);
  }

  async answer(period: string, version: number, answers: Answers, by: string): Promise<StoredRule94> {
    const tidy: Answers = {};
    for (const f of ANSWER_FIELDS) {
      const v = answers[f.key]?.trim();
      if (v) tidy[f.key] = v;
    }
    const r = await this.deps.stores.rule94.change(period, version, { answers: tidy }, (before) => {
      const changed = ANSWER_FIELDS.filter((f) => (before.answers[f.key] ?? '') !== (tidy[f.key] ?? '')).map((f) => f.label);
      return entry(
        by,
        'rule94:answer',
        `Rule 9.4 report for ${halfYear(period)!.text}: ${changed.length ? `answered ${changed.join(', ')}` : 'nothing changed'}`,
      );
    });
    return this.changed(r, period);
  }

  async recount(period: string, version: number, by: string): Promise<StoredRule94> {
    const h = this.ended(period);
    const figures = await countRule94(this.deps.stores, h);
    const at = this.deps.clock().toISOString();
    const r = await this.deps.stores.rule94.change(period, version, { figures, countedAt: at }, (before) =>
      entry(
        by,
        'rule94:recount',
        `Rule 9.4 report for ${h.text} counted again: ${figureChanges(before.figures, figures) || 'no figure changed'}`,
      ),
    );
    return this.changed(r, period);
  }

  async signOff(period: string, version: number, by: string): Promise<StoredRule94> {
    const { rule94 } = this.deps.stores;
    const current = await rule94.get(period);
    if (!current) throw new CoreError('NOT_FOUND', `There is no rule 9.4 report for ${halfYear(period)?.text ?? period} yet.`);
    if (current.state === 'draft') {
      const problems = signOffProblems(current.answers);
      if (problems.length) throw new CoreError('INVALID_INPUT', `It cannot be signed off yet: ${problems.join(' ')}`);
    }
    const at = this.deps.clock().toISOString();
    const sha256 = sha256Of(signedText(current, { signedBy: by, signedAt: at }));
    const r = await rule94.signOff(period, version, { signedBy: by, signedAt: at, sha256 }, () =>
      entry(by, 'rule94:signoff', `Rule 9.4 report for ${halfYear(period)!.text} signed off and archived: sha256 ${sha256}`),
    );
    // Answered or counted again since the person read it: what they signed would not be what is stored.
    return this.changed(r, period);
  }

  /** The reminder's finding: the last ended half-year's report waiting for sign-off, within its 30 days. */
  async awaiting(): Promise<{ firing: boolean; summary: string }> {
    const now = this.deps.clock();
    const h = lastEndedHalfYear(now);
    // Not made yet (no sync since the half-year ended): reminded all the same within its days.
    const r = await this.catchUp();
    if (r?.state === 'signed')
      return { firing: false, summary: `The rule 9.4 report for ${h.text} was signed off by ${r.signedBy} at ${r.signedAt}` };
    const left = daysLeft(h, now);
    if (left < 0) return { firing: false, summary: `The rule 9.4 report for ${h.text} was due on ${h.dueOn}: no longer reminded` };
    const waits = r ? 'waits for sign-off' : 'waits for a sync before it is made, then for sign-off';
    return {
      firing: true,
      summary: `The rule 9.4 report for ${h.text} ${waits}: due ${h.dueOn} (${left === 0 ? 'today' : `${left} day${left === 1 ? '' : 's'} left`})`,
    };
  }

  private ended(period: string): HalfYear {
    const h = halfYear(period);
    if (!h) throw new CoreError('INVALID_INPUT', `${period} is not a half-year (such as 2026-H2).`);
    if (!hasEnded(h, this.deps.clock()))
      throw new CoreError('INVALID_INPUT', `${h.text} has not ended: its report is made after its last day.`);
    return h;
  }

  private changed(r: Rule94Change, period: string): StoredRule94 {
    const text = halfYear(period)?.text ?? period;
    if (r.outcome === 'missing') throw new CoreError('NOT_FOUND', `There is no rule 9.4 report for ${text} yet.`);
    if (r.outcome === 'signed')
      throw new CoreError(
        'CONFLICT',
        `The rule 9.4 report for ${text} was signed off by ${r.current.signedBy} at ${r.current.signedAt}: it is archived and cannot change.`,
      );
    if (r.outcome === 'conflict')
      throw new CoreError(
        'CONFLICT',
        `The rule 9.4 report for ${text} was changed since you opened it: nothing was saved. Open it again to see the change.`,
      );
    return r.report;
  }
}

const entry = (operator: string, action: string, result: string): AuditEntry => ({ operator, action, target: null, reason: null, result });

const summaryOf = (figures: Rule94Figure[]) =>
  figures
    .filter((f) => !f.label.startsWith('—'))
    .map((f) => `${f.label.toLowerCase()} ${f.value}`)
    .join(', ');

/** "consents given 3 → 4; …": the figures that changed. */
function figureChanges(before: Rule94Figure[], after: Rule94Figure[]): string {
  const was = new Map(before.map((f) => [f.key, f]));
  const now = new Map(after.map((f) => [f.key, f]));
  const keys = [...new Set([...was.keys(), ...now.keys()])];
  return keys
    .filter((k) => was.get(k)?.value !== now.get(k)?.value)
    .map((k) => `${(now.get(k) ?? was.get(k))!.label.replace(/^— /, '')}: ${was.get(k)?.value ?? 0} → ${now.get(k)?.value ?? 0}`)
    .join('; ');
}
