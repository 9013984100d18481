import type { AuditEntry } from '../../audit/port.js';

/** Whether the monthly compliance pack is made, and in which time zone's months. */
export interface MonthlySchedule {
  enabled: boolean;
  timeZone: string;
  changedBy: string;
  changedAt: string;
}

/** A month's compliance pack as made: the Reports screen's figures for the month, as HTML and CSV. */
export interface MonthlyPack {
  /** "2026-10": the month, in `timeZone`'s calendar. */
  period: string;
  timeZone: string;
  /** The month's first instant and the first after it (ISO UTC). */
  from: string;
  to: string;
  madeAt: string;
  madeBy: string;
  html: string;
  csv: string;
  /** SHA-256 of the HTML as made (hex). */
  sha256: string;
  /** What its e-mail did, in words; null while none was tried (no e-mail set up, or not yet). */
  sent: string | null;
}

/** A pack as listed: all but its two files. */
export type PackSummary = Omit<MonthlyPack, 'html' | 'csv'>;

/**
 * The monthly compliance pack's storage port (issue 38), written once for both engines (store.ts,
 * over the typed query layer). A month's pack is made once: of servers making it at once, one
 * stores it (the month is the key) and sends it.
 */
export interface MonthlyPackStore {
  schedule(): Promise<MonthlySchedule | undefined>;
  setSchedule(schedule: MonthlySchedule, audit: AuditEntry): Promise<MonthlySchedule>;
  /** The packs made, the latest month first, without their files (read by get). */
  list(limit: number): Promise<PackSummary[]>;
  get(period: string): Promise<MonthlyPack | undefined>;
  /** Stores a month's pack; null when it was made already (here or by another server). */
  make(pack: MonthlyPack, audit: AuditEntry): Promise<MonthlyPack | null>;
  /** Records what the pack's e-mail did. */
  sent(period: string, detail: string): Promise<void>;
}
