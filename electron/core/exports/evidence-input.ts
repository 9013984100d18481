import type { ConsentDetail } from '../../../shared/ipc/contract.js';
import type { AuditVerification } from '../audit/port.js';

/** What an evidence pack is made of: the pack (evidence-pack.ts) and its HTML summary (evidence-html.ts) read it. */
export interface EvidenceInput {
  detail: ConsentDetail;
  verification: AuditVerification;
  generatedAt: string;
  generatedBy: string;
  appVersion: string;
  profile: { id: string; name: string; environment: string };
  /** The console's zone, the summary's times are read in (beside UTC); the host's when absent. */
  timeZone?: string | undefined;
}
