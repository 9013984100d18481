/**
 * The tables the typed query layer (issue 37) writes and reads, described once as types for both
 * engines: a store written over it (query.ts) compiles each query for SQLite or PostgreSQL, and the
 * engines' migrations (cache/migrations/, postgres/migrations/) create the same columns. Days are
 * text (YYYY-MM-DD), instants ISO 8601 text in UTC (PostgreSQL's timestamptz reads back as that too).
 *
 * Tables move here from the hand-written SQL of cache/ and postgres/ as they are rewritten; today:
 * the complaints register, the alerts and the rule 9.4 reports (issue 38), the bulk revocations'
 * records, and the consents' common columns for reading.
 */
export interface ComplaintsTable {
  id: string;
  number: number;
  received_on: string;
  channel: string;
  category: string;
  description: string;
  consent_id: string | null;
  consumer_id: string | null;
  outcome: string | null;
  resolved_on: string | null;
  referred_to: string | null;
  created_at: string;
  created_by: string;
  updated_at: string;
  updated_by: string;
  version: number;
}

/** An alert rule (issue 38): its kind's parameters as JSON; a silence holds its messages back until a time. */
export interface AlertRulesTable {
  id: string;
  kind: string;
  params: string;
  /** 1 or 0 (an integer in both engines). */
  enabled: number;
  silenced_until: string | null;
  silence_reason: string | null;
  silenced_by: string | null;
  created_at: string;
  created_by: string;
  updated_at: string;
  version: number;
}

/**
 * An alert: a rule that fired, while it fires and after it resolved. At most one firing alert per
 * rule (a unique index on the firing ones): of two servers evaluating at once, one opens it.
 */
export interface AlertsTable {
  id: string;
  rule_id: string;
  state: string;
  /** What it found, in words ("7 webhook deliveries failed in the last hour (35% of 20)"). */
  summary: string;
  first_at: string;
  last_at: string;
  /** When its message last went out (the repeat interval counts from it); null while held back. */
  notified_at: string | null;
  resolved_at: string | null;
  acknowledged_by: string | null;
  acknowledged_at: string | null;
}

/** A report made on a schedule (one row per schedule: "monthly-pack"): on or off, and in which zone's calendar. */
export interface ReportSchedulesTable {
  id: string;
  enabled: number;
  time_zone: string;
  changed_by: string;
  changed_at: string;
}

/** A month's compliance pack as made: its period ("2026-10") is the key, so it is made once. */
export interface MonthlyPacksTable {
  period: string;
  time_zone: string;
  from_at: string;
  to_at: string;
  made_at: string;
  made_by: string;
  html: string;
  csv: string;
  sha256: string;
  sent: string | null;
}

/** Which alerts each person has read, and when last: an alert changed since (resolved) is unread again. */
export interface AlertReadsTable {
  alert_id: string;
  person: string;
  read_at: string;
}

/**
 * A rule 9.4 report (issue 38), one per half-year ("2026-H2", the key: made once across a team).
 * Its figures and answers as JSON text; a signed one is archived (the engines' triggers refuse to
 * change or delete it) with the SHA-256 of what was signed.
 */
export interface Rule94ReportsTable {
  period: string;
  state: string;
  figures: string;
  answers: string;
  made_at: string;
  made_by: string;
  counted_at: string;
  signed_by: string | null;
  signed_at: string | null;
  sha256: string | null;
  version: number;
}

/**
 * The consents as the typed layer reads them: the columns both engines keep alike (SQLite's
 * columns, PostgreSQL's generated from the payload). Written only by the sync's hand-tuned paths.
 */
export interface ConsentsTable {
  consent_id: string;
  status: string | null;
  consumer_id: string | null;
  consumer_email: string | null;
  data_holder_name: string | null;
  created: string | null;
  sharing_end_date: string | null;
  revoked: string | null;
  data_holder_brand_id: string | null;
  /** When the consent was last stored from the intermediary (ISO text on both engines). */
  synced_at: string;
}

/**
 * The events as the typed layer reads them (the sync writes them). `at` differs by engine:
 * SQLite keeps milliseconds since the epoch, PostgreSQL a timestamptz (compared with an ISO text).
 */
export interface EventsTable {
  event_id: string;
  consent_id: string;
  event_type: string;
  at: number | string;
  event_detail: string | null;
}

/** A bulk revocation (issue 26): who asked and why; on a team server, who runs it and the second person's decision. */
export interface ActionJobsTable {
  job_id: string;
  kind: string;
  created: string;
  operator: string;
  reason: string;
  approval_requested_by: string | null;
  approval_decision: string | null;
  approval_by: string | null;
  approval_at: string | null;
}

/** One consent of a bulk revocation, in the job's order (`seq` from 1). */
export interface ActionJobItemsTable {
  job_id: string;
  seq: number;
  consent_id: string;
  /** pending, revoked, already-inactive or failed (the contract's BulkItem status). */
  status: string;
  detail: string | null;
  /** When its DELETE was about to be sent (a run killed after it asks the intermediary on resume). */
  sent_at: string | null;
}

/**
 * The staff action log's columns every engine has (a team server's also keeps the chain an entry
 * belongs to, its person and its MAC: postgres/audit.ts). Read here for counting; written only by
 * the audit chain's own code (cache/audit-log.ts, postgres/audit.ts).
 */
export interface AuditLogTable {
  seq: number;
  at: string;
  operator: string;
  action: string;
  target: string | null;
  reason: string | null;
  result: string;
}

/** What retention did to each ended consent's data (cache/retention.ts, postgres/data-retention.ts). */
export interface RetentionLogTable {
  seq: number;
  consent_id: string;
  action: string;
  records: number;
  kinds: string;
  reason: string;
  at: string;
}

/**
 * The Data API records as the typed layer reads them (the sync writes them: cache/data-repo.ts,
 * postgres/data.ts). JSON columns are text in SQLite and parsed values from PostgreSQL.
 */
export interface DataRecordsTable {
  kind: string;
  record_id: string;
  consent_id: string | null;
  shape: string | null;
  raw: unknown;
  normalized: unknown;
  notes: unknown;
  fetched_at: string;
}

/** Every distinct version of a product the console has seen (JSON columns as in DataRecordsTable). */
export interface ProductVersionsTable {
  record_id: string;
  hash: string;
  shape: string | null;
  raw: unknown;
  normalized: unknown;
  notes: unknown;
  seen_at: string;
}

export interface Schema {
  data_records: DataRecordsTable;
  product_versions: ProductVersionsTable;
  complaints: ComplaintsTable;
  audit_log: AuditLogTable;
  retention_log: RetentionLogTable;
  action_jobs: ActionJobsTable;
  action_job_items: ActionJobItemsTable;
  alert_rules: AlertRulesTable;
  alerts: AlertsTable;
  alert_reads: AlertReadsTable;
  report_schedules: ReportSchedulesTable;
  monthly_packs: MonthlyPacksTable;
  rule94_reports: Rule94ReportsTable;
  consents: ConsentsTable;
  events: EventsTable;
}
