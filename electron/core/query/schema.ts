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

export interface Schema {
  complaints: ComplaintsTable;
}
