import type { Complaint, ComplaintFilter } from '../../../shared/ipc/contract.js';
import type { ComplaintFields } from '../../../shared/complaints/complaints.js';
import type { AuditEntry } from '../audit/port.js';

/** A complaint as it is first recorded: its id, who recorded it and when. */
export interface NewComplaint {
  id: string;
  fields: ComplaintFields;
  by: string;
  at: string;
}

export type ComplaintUpdate =
  | { outcome: 'updated'; complaint: Complaint }
  /** Changed by someone else since `version` was read: nothing was written; what it is now. */
  | { outcome: 'conflict'; current: Complaint }
  | { outcome: 'missing' };

/**
 * The complaints domain's storage port (the register, issue 38). One implementation for both
 * engines (store.ts, over the typed query layer); each write lands with its audit entry, both or
 * neither.
 */
export interface ComplaintStore {
  /** A window of the complaints the filter keeps, newest received first, and how many it keeps. */
  list(filter: ComplaintFilter, offset: number, limit: number): Promise<{ rows: Complaint[]; total: number }>;
  get(id: string): Promise<Complaint | undefined>;
  /** Records a new complaint, numbered next in the register. */
  record(complaint: NewComplaint, audit: (recorded: Complaint) => AuditEntry): Promise<Complaint>;
  /** Changes a complaint read at `version`. */
  update(
    id: string,
    version: number,
    fields: ComplaintFields,
    by: string,
    at: string,
    audit: (before: Complaint, after: Complaint) => AuditEntry,
  ): Promise<ComplaintUpdate>;
}
