/**
 * The tables the typed query layer (issue 37) writes and reads, described once as types for both
 * engines: a store written over it (query.ts) compiles each query for SQLite or PostgreSQL, and the
 * engines' migrations (cache/migrations/, postgres/migrations/) create the same columns. Days are
 * text (YYYY-MM-DD), instants ISO 8601 text in UTC (PostgreSQL's timestamptz reads back as that too).
 *
 * Tables move here from the hand-written SQL of cache/ and postgres/ as they are rewritten; today:
 * the complaints register (issue 38).
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

export interface Schema {
  complaints: ComplaintsTable;
  alert_rules: AlertRulesTable;
  alerts: AlertsTable;
}
