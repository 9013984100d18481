import type { AuditEntry, AuditRecord } from '../audit/port.js';
import { queriesFor, type Compilable, type QueryReader, type QueryRunner } from '../query/query.js';
import type { PgDb, Tx } from './db.js';

/**
 * The typed query layer (query/query.ts) on the team store: what Kysely compiles runs on PgDb's
 * pool (its health watch sees every query), and a write with its audit entry is one transaction
 * whose entry is chained as every other (`audited`, postgres-storage.ts); `committed` runs once it
 * has committed (the anchor, the shared answers).
 */
export function pgQueryRunner(db: PgDb, audited: (tx: Tx, entry: AuditEntry) => Promise<AuditRecord>, committed: () => void): QueryRunner {
  return {
    ...pgQueryReader(db),
    audited: async <R>(query: Compilable<R>, auditOf: (rows: R[]) => AuditEntry | null) => {
      const { sql, parameters } = query.compile();
      const done = await db.tx(async (tx) => {
        const rows = (await tx.query(sql, parameters)) as R[];
        const entry = auditOf(rows);
        return { rows, record: entry ? await audited(tx, entry) : null };
      });
      if (done.record) committed();
      return done;
    },
    batch: (queries) =>
      db.tx(async (tx) => {
        const out: unknown[][] = [];
        for (const query of queries) {
          const { sql, parameters } = query.compile();
          out.push(await tx.query(sql, parameters));
        }
        return out;
      }),
  };
}

/** The typed query layer's reads on the team store's pool (for a store that only reads: the audit log's). */
export function pgQueryReader(db: Pick<PgDb, 'query'>): QueryReader {
  return {
    engine: 'postgres',
    queries: () => queriesFor('postgres'),
    all: async <R>(query: Compilable<R>) => {
      const { sql, parameters } = query.compile();
      return (await db.query(sql, parameters)) as R[];
    },
  };
}
