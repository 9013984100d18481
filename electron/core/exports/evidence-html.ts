import { CATEGORY_TEXT, CHANNEL_TEXT, OUTCOME_TEXT, complaintReference } from '../../../shared/complaints/complaints.js';
import { escapeHtml } from '../../../shared/text/escape-html.js';
import { diffVersions, valueText } from '../../../shared/consents/diff.js';
import { statusSentence } from '../../../shared/consents/status.js';
import type { EvidenceInput } from './evidence-input.js';
import { machineTimeZone, zonedDateTime } from '../../../shared/time/zone.js';

/**
 * The evidence pack's readable summary: one self-contained HTML page (no script, no remote
 * resource) that prints well on A4. Every value is escaped. Each time is given in the console's
 * zone (named at the top), then in UTC to the millisecond exactly as stored, so an auditor reads the
 * day it happened and can match it against the JSON files.
 */
const esc = (v: unknown) => escapeHtml(valueText(v));
const cell = (v: unknown) => `<td>${v === undefined || v === null || v === '' ? '<span class="none">—</span>' : esc(v)}</td>`;

function table(headers: string[], rows: unknown[][], empty: string): string {
  if (!rows.length) return `<p class="none">${esc(empty)}</p>`;
  return `<table><thead><tr>${headers.map((h) => `<th scope="col">${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows
    .map((r) => `<tr>${r.map(cell).join('')}</tr>`)
    .join('')}</tbody></table>`;
}

export function evidenceSummaryHtml(input: EvidenceInput): string {
  const { detail, verification } = input;
  const zone = input.timeZone ?? machineTimeZone();
  /** "2026-10-01 11:00:00 · 2026-10-01T00:00:00.000Z": the zone's time, then the stored UTC instant. */
  const when = (iso: string | null | undefined) => (iso ? `${zonedDateTime(iso, zone)} · ${iso}` : null);
  const c = detail.consent;
  const useCase = detail.useCase ?? c.useCase ?? null;
  const facts: [string, unknown][] = [
    ['Consent id', c.consentId],
    ['Status', statusSentence(c, new Date(input.generatedAt), (iso) => `${zonedDateTime(iso, zone).slice(0, 10)} (${zone})`)],
    ['CDR arrangement id', c.cdrArrangementId],
    ['Version', c.version],
    ['Created', when(c.created)],
    ['Sharing end date', when(c.sharingEndDate)],
    ['Revoked', when(c.revoked)],
    ['First data collection', when(c.firstDataCollection)],
    ['Last notification sent', when(c.lastNotificationSentAt)],
    ['Data holder', `${c.dataHolderName ?? ''} (brand ${c.dataHolderBrandId ?? 'unknown'})`],
    ['Use case', useCase ? `${useCase.name ?? ''} (${useCase.id})` : null],
    ['Access frequency', useCase?.accessFrequency],
    ['Consumer id', c.consumerId],
    ['Consumer e-mail', c.consumerEmail],
    ['Consumer mobile', c.consumerMobileNumber],
    ['External id', c.externalId],
    ['Post-usage action', c.postUsageAction],
    [
      'Direct marketing allowed',
      c.directMarketingAllowed === undefined || c.directMarketingAllowed === null ? null : c.directMarketingAllowed ? 'yes' : 'no',
    ],
    ['Customer IP address', c.customerIPAddress],
  ];
  const versionRows = detail.versions.map((v, i) => {
    const changes = i === 0 ? [] : diffVersions(detail.versions[i - 1]!.consent, v.consent);
    return [
      i + 1,
      v.version,
      when(v.seenAt),
      i === 0 ? 'first version seen' : changes.map((ch) => `${ch.path}: ${valueText(ch.before)} → ${valueText(ch.after)}`).join('; '),
    ];
  });
  const chain = verification.ok
    ? `<p class="ok">Audit chain verified: all ${verification.entries} entries intact at ${esc(input.generatedAt)}.</p>`
    : `<p class="broken">Audit chain BROKEN at entry ${verification.brokenAt} of ${verification.entries}: ${esc(verification.problem)}.</p>`;
  return `<!doctype html>
<html lang="en-AU"><head><meta charset="utf-8"><title>Evidence pack — consent ${esc(c.consentId)}</title>
<style>
  body { font: 11pt/1.45 system-ui, "Segoe UI", Roboto, "Noto Sans", Arial, sans-serif; color: #111; margin: 2rem; }
  h1 { font-size: 16pt; margin: 0 0 .25rem; } h2 { font-size: 13pt; margin: 1.5rem 0 .5rem; border-bottom: 1px solid #999; }
  table { border-collapse: collapse; width: 100%; font-size: 9.5pt; } th, td { border: 1px solid #bbb; padding: 3px 6px; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
  th { background: #eee; } .facts th { width: 28%; } .none { color: #666; } .ok { color: #0a5c2e; font-weight: 600; } .broken { color: #a00; font-weight: 700; }
  .meta { color: #333; font-size: 9.5pt; } code { font-family: ui-monospace, Menlo, Consolas, monospace; }
  @page { size: A4; margin: 15mm; } @media print { body { margin: 0; } h2 { break-after: avoid; } tr { break-inside: avoid; } }
</style></head><body>
<h1>Evidence pack — consent <code>${esc(c.consentId)}</code></h1>
<p class="meta">Generated ${esc(when(input.generatedAt))} by ${esc(input.generatedBy)} with CDR Console ${esc(input.appVersion)}, profile “${esc(input.profile.name)}” (${esc(input.profile.environment)}). Times are in ${esc(zone)}, each followed by its UTC instant as stored (as in the JSON files). Every file of this pack is listed with its SHA-256 in manifest.json.</p>
<h2>The consent</h2>
<table class="facts"><tbody>${facts.map(([k, v]) => `<tr><th scope="row">${esc(k)}</th>${cell(v)}</tr>`).join('')}</tbody></table>
<h2>Scopes</h2>
${table(
  ['Scope', 'Name', 'Purpose', 'Claims'],
  (useCase?.scopes ?? []).map((s) => [s.id, s.name, s.purpose, (s.claims ?? []).join(', ')]),
  'No scopes recorded.',
)}
<h2>Versions seen (${detail.versions.length})</h2>
${table(['#', 'Version', `Seen at (${zone} · UTC)`, 'What changed'], versionRows, 'No versions cached.')}
<h2>Consent events (${detail.events.length})</h2>
${table(
  [`Time (${zone} · UTC)`, 'Event', 'Detail', 'Event id'],
  [...detail.events].reverse().map((e) => [when(e.timestamp), e.eventType, e.eventDetail, e.eventId]),
  'No events cached.',
)}
<h2>Staff actions (${detail.audit.length})</h2>
${chain}
${table(
  ['#', `Time (${zone} · UTC)`, 'Operator', 'Action', 'Reason', 'Result', 'Hash'],
  detail.audit.map((a) => [a.seq, when(a.at), a.operator, a.action, a.reason, a.result, a.hash]),
  'No staff actions on this consent.',
)}
<h2>Retention (deletion and de-identification)</h2>
${table(
  [`Time (${zone} · UTC)`, 'Action', 'Records', 'Kinds', 'Reason'],
  detail.retention.map((r) => [when(r.at), r.action, r.records, r.kinds, r.reason]),
  'Retention has not acted on this consent’s data.',
)}
<h2>Complaints (${input.complaints.length})</h2>
${table(
  ['Reference', 'Received on', 'Channel', 'Category', 'What it is about', 'Outcome', 'Resolved on', 'Referred to', 'Recorded by'],
  input.complaints.map((c) => [
    complaintReference(c.number),
    c.receivedOn,
    CHANNEL_TEXT[c.channel],
    CATEGORY_TEXT[c.category],
    c.description,
    c.outcome ? OUTCOME_TEXT[c.outcome] : 'Open',
    c.resolvedOn,
    c.referredTo,
    c.createdBy,
  ]),
  'No complaint about this consent is in the register.',
)}
<h2>Data collected (cached now)</h2>
${table(
  ['Kind', 'Records', 'Last fetched'],
  detail.data.map((d) => [d.kind, d.count, when(d.fetchedAt)]),
  'No Data API records of this consent are cached.',
)}
</body></html>
`;
}
