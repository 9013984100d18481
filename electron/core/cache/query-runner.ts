import type { AuditEntry } from '../audit/port.js';
import { queriesFor, type Compilable, type QueryReader, type QueryRunner } from '../query/query.js';
import type { AuditLog } from './audit-log.js';
import type { Db } from './db.js';

/**
 * The typed query layer (query/query.ts) on the SQLite cache: what Kysely compiles runs on the
 * one better-sqlite3 connection, synchronously, so a write and its audit entry are one
 * transaction that never spans an await.
 */
export function sqliteQueryRunner(db: Db, audit: AuditLog): QueryRunner {
  const run = <R>(query: Compilable<R>): R[] => runOn(db, query);
  return {
    ...sqliteQueryReader(db),
    audited: async <R>(query: Compilable<R>, auditOf: (rows: R[]) => AuditEntry | null) =>
      db.transaction(() => {
        const rows = run(query);
        const entry = auditOf(rows);
        return { rows, record: entry ? audit.append(entry) : null };
      })(),
    batch: async (queries) => db.transaction(() => queries.map((q) => run(q)))(),
  };
}

/** The typed query layer's reads on the cache's connection (for a store that only reads: the audit log's). */
export function sqliteQueryReader(db: Db): QueryReader {
  return { engine: 'sqlite', queries: () => queriesFor('sqlite'), all: async (query) => runOn(db, query) };
}

/** What a compiled query returns on the connection (a write returns nothing). */
function runOn<R>(db: Db, query: Compilable<R>): R[] {
  const { sql, parameters } = query.compile();
  const stmt = db.prepare(sql);
  const params = parameters.map(sqliteValue);
  if (stmt.reader) return stmt.all(...params) as R[];
  stmt.run(...params);
  return [];
}

/** A parameter as better-sqlite3 binds it (it refuses booleans and undefined). */
function sqliteValue(v: unknown): unknown {
  if (typeof v === 'boolean') return v ? 1 : 0;
  return v === undefined ? null : v;
}
