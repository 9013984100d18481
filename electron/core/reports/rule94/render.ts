import type { Rule94Report } from '../../../../shared/ipc/contract.js';
import { ANSWER_FIELDS, REPORT_ZONE } from '../../../../shared/reports/rule94.js';
import { escapeHtml as esc } from '../../../../shared/text/escape-html.js';
import { zonedDateTime } from '../../../../shared/time/zone.js';

/** What a file of the report says it was made with. */
export interface Rule94Meta {
  profile: string;
  appVersion: string;
  exportedBy: string;
  exportedAt: string;
}

const when = (iso: string | null) => (iso ? `${zonedDateTime(iso, REPORT_ZONE)} (${REPORT_ZONE}), ${iso} UTC` : '');

/** The report's facts, figures and answers as rows: the CSV, and the head of the HTML. */
export function rule94Rows(r: Rule94Report, meta: Rule94Meta): string[][] {
  return [
    ['Report', 'CDR rule 9.4 report of an accredited data recipient'],
    ['Period', `${r.text} (${REPORT_ZONE})`],
    [`Period from (${REPORT_ZONE})`, zonedDateTime(r.from, REPORT_ZONE)],
    [`Period to (${REPORT_ZONE}, exclusive)`, zonedDateTime(r.to, REPORT_ZONE)],
    ['Period from (UTC)', r.from],
    ['Period to (UTC, exclusive)', r.to],
    ['Due on', r.dueOn],
    ['State', r.state === 'signed' ? 'Signed off and archived' : 'Draft: not signed off'],
    ['Made', `${when(r.madeAt)} by ${r.madeBy}`],
    ['Counted', when(r.countedAt)],
    ['Signed off', r.signedAt ? `${when(r.signedAt)} by ${r.signedBy}` : ''],
    ['SHA-256 of what was signed', r.sha256 ?? ''],
    ['Exported', `${when(meta.exportedAt)} by ${meta.exportedBy}, profile “${meta.profile}”, CDR Console ${meta.appVersion}`],
    [],
    ['Figure', 'Value', 'How it was counted'],
    ...r.figures.map((f) => [f.label.replace(/^— /, '  '), String(f.value), f.how]),
    [],
    ['Question', 'Answer'],
    ...ANSWER_FIELDS.map((f) => [f.label, r.answers[f.key] ?? '']),
  ];
}

/** The report as a printable, self-contained HTML page (no script, nothing remote): print it to PDF from any browser. */
export function rule94Html(r: Rule94Report, meta: Rule94Meta): string {
  const draft = r.state !== 'signed';
  return `<!doctype html>
<html lang="en-AU"><head><meta charset="utf-8"><title>CDR rule 9.4 report ${esc(r.text)}</title>
<style>
  body { font: 11pt/1.45 system-ui, "Segoe UI", Roboto, "Noto Sans", Arial, sans-serif; color: #111; margin: 2rem; }
  h1 { font-size: 16pt; } h2 { font-size: 13pt; margin-top: 1.5rem; border-bottom: 1px solid #999; }
  table { border-collapse: collapse; width: 100%; font-size: 10pt; } th, td { border: 1px solid #bbb; padding: 4px 8px; text-align: left; vertical-align: top; }
  td.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; } th.part { padding-left: 1.5rem; font-weight: 400; }
  .meta { font-size: 9.5pt; color: #333; } .draft { border: 2px solid #a40000; color: #a40000; padding: 6px 10px; font-weight: 700; }
  .answer { white-space: pre-wrap; } code { font-size: 9pt; word-break: break-all; }
  @page { size: A4; margin: 15mm; } @media print { body { margin: 0; } }
</style></head><body>
<h1>CDR rule 9.4 report: ${esc(r.text)}</h1>
${draft ? '<p class="draft">Draft: not signed off. Figures may still be counted again.</p>' : ''}
<p class="meta">Half-year ${esc(r.text)} in Australian time (${esc(REPORT_ZONE)}): ${esc(r.from)} to ${esc(r.to)} UTC, end exclusive. Due on ${esc(r.dueOn)}.
Made ${esc(when(r.madeAt))} by ${esc(r.madeBy)}; figures counted ${esc(when(r.countedAt))} from the console’s cache (the intermediary’s consents and events, as of the last sync), its audit log and its complaints register.
${r.signedAt ? `Signed off ${esc(when(r.signedAt))} by ${esc(r.signedBy ?? '')}; SHA-256 of what was signed <code>${esc(r.sha256 ?? '')}</code> (also in the audit log).` : ''}
Exported ${esc(when(meta.exportedAt))} by ${esc(meta.exportedBy)}, profile “${esc(meta.profile)}”, CDR Console ${esc(meta.appVersion)}.</p>
<h2>Figures</h2>
<table><thead><tr><th>Figure</th><th>Value</th><th>How it was counted</th></tr></thead><tbody>
${r.figures
  .map((f) => {
    const part = f.label.startsWith('— ');
    return `<tr><th scope="row"${part ? ' class="part"' : ''}>${esc(f.label.replace(/^— /, ''))}</th><td class="n">${f.value}</td><td>${esc(f.how)}</td></tr>`;
  })
  .join('\n')}
</tbody></table>
<h2>Answered by the recipient</h2>
<table><tbody>
${ANSWER_FIELDS.map((f) => `<tr><th scope="row">${esc(f.label)}</th><td class="answer">${esc(r.answers[f.key] ?? '') || '<em>Not answered</em>'}</td></tr>`).join('\n')}
</tbody></table>
</body></html>
`;
}
