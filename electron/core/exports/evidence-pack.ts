import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { strToU8, zipSync, type Zippable } from 'fflate';
import type { Job } from '../../../shared/ipc/contract.js';
import { evidenceSummaryHtml } from './evidence-html.js';
import type { EvidenceInput } from './evidence-input.js';

/**
 * The evidence pack of one consent, for an auditor (CDR rules 9.3 and 1.18): every cached version
 * as the API sent it, its events, what staff did to it with the audit chain's verification, what
 * retention did to its data, the data collected (kinds, counts, times — never the data itself), a
 * printable HTML summary, and a manifest with the SHA-256 of every file. One ZIP.
 */
export interface EvidenceManifest {
  format: 'cdr-console-evidence/1';
  consentId: string;
  generatedAt: string;
  generatedBy: string;
  console: string;
  profile: EvidenceInput['profile'];
  files: { name: string; bytes: number; sha256: string }[];
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const stamp = (iso: string) => iso.replace(/[:.]/g, '-');

/** The files of the pack, by name (manifest excluded). */
export function evidenceFiles(input: EvidenceInput): Map<string, Uint8Array> {
  const { detail } = input;
  const files = new Map<string, Uint8Array>();
  const add = (name: string, text: string) => files.set(name, strToU8(text));
  add('summary.html', evidenceSummaryHtml(input));
  add('consent.json', json(detail.consent));
  detail.versions.forEach((v, i) =>
    add(`versions/${String(i + 1).padStart(3, '0')}-v${v.version ?? 'unknown'}-${stamp(v.seenAt)}.json`, json(v.consent)),
  );
  add('events.json', json(detail.events));
  add('staff-actions.json', json(detail.audit));
  add('audit-verification.json', json({ ...input.verification, verifiedAt: input.generatedAt }));
  add('retention.json', json(detail.retention));
  add('data-collections.json', json(detail.data));
  add('complaints.json', json(input.complaints));
  return files;
}

/** Writes the ZIP to `path`; returns its size, file count and SHA-256. */
export function writeEvidencePack(input: EvidenceInput, path: string): NonNullable<Job['result']> & { files: number } {
  const files = evidenceFiles(input);
  const manifest: EvidenceManifest = {
    format: 'cdr-console-evidence/1',
    consentId: input.detail.consent.consentId,
    generatedAt: input.generatedAt,
    generatedBy: input.generatedBy,
    console: input.appVersion,
    profile: input.profile,
    files: [...files].map(([name, bytes]) => ({ name, bytes: bytes.length, sha256: sha256(bytes) })),
  };
  const mtime = new Date(input.generatedAt);
  const entries: Zippable = {};
  for (const [name, bytes] of [...files, ['manifest.json', strToU8(json(manifest))] as const]) entries[name] = [bytes, { mtime }];
  const zip = zipSync(entries, { level: 6 });
  writeFileSync(path, zip, { mode: 0o600 });
  return { bytes: zip.length, sha256: sha256(zip), files: files.size + 1 };
}
