import type { Complaint, ConsentDetail } from '../../../shared/ipc/contract.js';
import type { AuditVerification } from '../audit/port.js';

/** What an evidence pack is made of: the pack (evidence-pack.ts) and its HTML summary (evidence-html.ts) read it. */
export interface EvidenceInput {
  detail: ConsentDetail;
  /** The complaints register's records of this consent (rule 9.3), oldest first. */
  complaints: readonly Complaint[];
  verification: AuditVerification;
  generatedAt: string;
  generatedBy: string;
  appVersion: string;
  profile: { id: string; name: string; environment: string };
  /** The console's zone, the summary's times are read in (beside UTC); the host's when absent. */
  timeZone?: string | undefined;
}
