import { escapeHtml } from '../../../shared/text/escape-html.js';
import type { ComplianceReport } from '../../../shared/ipc/contract.js';
import type { ReportStore } from './port.js';
import type { LocalPeriod } from './period.js';
import { zonedDateTime } from '../../../shared/time/zone.js';

/**
 * The counts a data recipient needs for its CDR reports and record keeping (rules 9.3 and 9.4) for
 * a period [from, to): consents granted, extended, amended, withdrawn (by staff from this console —
 * the audit log says so — or by the consumer or the data holder: the intermediary's events do not
 * say which of the two), expired; data collections per data holder; deletions and
 * de-identifications by retention. Each count names where its records are.
 */
export async function complianceReport(store: ReportStore, period: { from: string; to: string }, now: Date): Promise<ComplianceReport> {
  const fromIso = new Date(Date.parse(period.from)).toISOString();
  const toIso = new Date(Date.parse(period.to)).toISOString();
  const [perType, byStaff, amended, collectionsByHolder, retention, perPerson] = await Promise.all([
    store.eventsByType(fromIso, toIso, ['GRANTED', 'EXTENDED', 'REVOKED', 'EXPIRED']),
    store.audited('revoke', fromIso, toIso, 'revoked'),
    store.audited('update', fromIso, toIso),
    store.collectionsByHolder(fromIso, toIso),
    store.retention(fromIso, toIso),
    store.staffActions(fromIso, toIso),
  ]);
  const events = (type: string) => perType.get(type) ?? 0;
  const withdrawn = events('REVOKED');
  return {
    from: fromIso,
    to: toIso,
    generatedAt: now.toISOString(),
    counts: [
      {
        key: 'granted',
        label: 'Consents granted',
        count: events('GRANTED'),
        records: { screen: 'events', types: ['GRANTED'] },
        note: null,
      },
      {
        key: 'extended',
        label: 'Consents extended',
        count: events('EXTENDED'),
        records: { screen: 'events', types: ['EXTENDED'] },
        note: null,
      },
      {
        key: 'amended',
        label: 'Consents amended by staff',
        count: amended,
        records: { screen: 'audit', action: 'update' },
        note: 'Changes made from this console (external id, post-usage action, direct marketing).',
      },
      { key: 'withdrawn', label: 'Consents withdrawn', count: withdrawn, records: { screen: 'events', types: ['REVOKED'] }, note: null },
      {
        key: 'withdrawn-staff',
        label: '— withdrawn by staff',
        count: byStaff,
        records: { screen: 'audit', action: 'revoke' },
        note: 'Revocations made from this console, per the audit log.',
      },
      {
        key: 'withdrawn-other',
        label: '— withdrawn by the consumer or the data holder',
        count: Math.max(0, withdrawn - byStaff),
        records: { screen: 'events', types: ['REVOKED'] },
        note: 'The intermediary’s events do not say which of the two; a withdrawal in the period by staff is counted above.',
      },
      {
        key: 'expired',
        label: 'Consents expired',
        count: events('EXPIRED'),
        records: { screen: 'events', types: ['EXPIRED'] },
        note: null,
      },
      {
        key: 'collections',
        label: 'Data collections',
        count: collectionsByHolder.reduce((n, c) => n + c.count, 0),
        records: { screen: 'events', types: ['DATA_COLLECTION_COMPLETED'] },
        note: null,
      },
      ...retention.map((r) => ({
        key: `retention-${r.action}`,
        label: r.action === 'deleted' ? 'Consents whose data was deleted' : 'Consents whose data was de-identified',
        count: r.consents,
        records: { screen: 'audit' as const, action: `retention:${r.action}` },
        note: `${r.records} records.`,
      })),
    ],
    collectionsByHolder,
    retention,
    byStaff: perPerson,
  };
}

/** The report as CSV: the period in the console's zone and in UTC, one row per count, then collections per data holder. */
export function complianceCsvRows(r: ComplianceReport, period: LocalPeriod): string[][] {
  const z = period.timeZone;
  return [
    ['Period', period.text],
    ['Time zone', z],
    [`Period from (${z})`, zonedDateTime(r.from, z)],
    [`Period to (${z}, exclusive)`, zonedDateTime(r.to, z)],
    ['Period from (UTC)', r.from],
    ['Period to (UTC, exclusive)', r.to],
    [`Generated (${z})`, zonedDateTime(r.generatedAt, z)],
    ['Generated (UTC)', r.generatedAt],
    [],
    ['Measure', 'Count', 'Note'],
    ...r.counts.map((c) => [c.label.replace(/^— /, '  '), String(c.count), c.note ?? '']),
    [],
    ['Data holder', 'Data collections'],
    ...r.collectionsByHolder.map((c) => [c.dataHolderName, String(c.count)]),
    [],
    ['Member of staff', 'Consents withdrawn', 'Consents amended'],
    ...r.byStaff.map((s) => [s.operator, String(s.withdrawn), String(s.amended)]),
  ];
}

const esc = escapeHtml;

/** The report as a printable, self-contained HTML page (no script, nothing remote). */
export function complianceHtml(
  r: ComplianceReport,
  period: LocalPeriod,
  meta: { profile: string; operator: string; appVersion: string },
): string {
  const z = period.timeZone;
  const rows = (cells: string[][]) =>
    cells.map((c) => `<tr>${c.map((v, i) => (i === 0 ? `<th scope="row">${esc(v)}</th>` : `<td>${esc(v)}</td>`)).join('')}</tr>`).join('');
  return `<!doctype html>
<html lang="en-AU"><head><meta charset="utf-8"><title>CDR compliance report ${esc(period.text)}</title>
<style>
  body { font: 11pt/1.45 system-ui, "Segoe UI", Roboto, "Noto Sans", Arial, sans-serif; color: #111; margin: 2rem; }
  h1 { font-size: 16pt; } h2 { font-size: 13pt; margin-top: 1.5rem; border-bottom: 1px solid #999; }
  table { border-collapse: collapse; width: 100%; font-size: 10pt; } th, td { border: 1px solid #bbb; padding: 4px 8px; text-align: left; }
  td:nth-child(2) { text-align: right; font-variant-numeric: tabular-nums; } .meta { font-size: 9.5pt; color: #333; }
  .staff td { text-align: right; font-variant-numeric: tabular-nums; }
  @page { size: A4; margin: 15mm; } @media print { body { margin: 0; } }
</style></head><body>
<h1>CDR compliance report: ${esc(period.text)}</h1>
<p class="meta">Period ${esc(period.text)}, in ${esc(z)}: from ${esc(zonedDateTime(r.from, z))} to ${esc(zonedDateTime(r.to, z))} there (end exclusive), that is ${esc(r.from)} to ${esc(r.to)} UTC. Generated ${esc(zonedDateTime(r.generatedAt, z))} (${esc(z)}) by ${esc(meta.operator)}, profile “${esc(meta.profile)}”, CDR Console ${esc(meta.appVersion)}. Counts come from the console’s cache (the intermediary’s consent events, as of the last sync) and its audit log.</p>
<h2>Consents</h2>
<table><thead><tr><th>Measure</th><th>Count</th><th>Note</th></tr></thead><tbody>${rows(r.counts.map((c) => [c.label, String(c.count), c.note ?? '']))}</tbody></table>
<h2>Data collections per data holder</h2>
${r.collectionsByHolder.length ? `<table><thead><tr><th>Data holder</th><th>Collections</th></tr></thead><tbody>${rows(r.collectionsByHolder.map((c) => [c.dataHolderName, String(c.count)]))}</tbody></table>` : '<p>No collections in the period.</p>'}
<h2>Withdrawn and amended, per member of staff</h2>
${r.byStaff.length ? `<table class="staff"><thead><tr><th>Member of staff</th><th>Withdrawn</th><th>Amended</th></tr></thead><tbody>${rows(r.byStaff.map((s) => [s.operator, String(s.withdrawn), String(s.amended)]))}</tbody></table>` : '<p>No consent withdrawn or amended by staff in the period.</p>'}
</body></html>
`;
}
