/**
 * The reports domain's storage port: the counts a compliance report is made of, for a period
 * [from, to) given as ISO 8601 instants. The report itself (compliance.ts) is built from these and
 * knows no engine.
 */
export interface ReportStore {
  /** How many events of each type fall in the period. */
  eventsByType(from: string, to: string, types: readonly string[]): Promise<Map<string, number>>;
  /** Staff actions in the audit log: of an action with exactly this result, or every one that did not fail. */
  audited(action: string, from: string, to: string, result?: string): Promise<number>;
  /**
   * Staff actions in the period per member of staff (the audit log's operator: on a team server the
   * signed-in person): consents withdrawn (revocations that revoked) and amended (updates that did
   * not fail), most first.
   */
  staffActions(from: string, to: string): Promise<{ operator: string; withdrawn: number; amended: number }[]>;
  /** What retention did in the period, per action. */
  retention(from: string, to: string): Promise<{ action: string; consents: number; records: number }[]>;
  /** Data collections completed in the period per data holder, most first. */
  collectionsByHolder(from: string, to: string): Promise<{ dataHolderName: string; count: number }[]>;
}
