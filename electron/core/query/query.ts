import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type CompiledQuery,
} from 'kysely';
import type { AuditEntry, AuditRecord } from '../audit/port.js';
import type { Schema } from './schema.js';

/**
 * One typed query layer for both engines (issue 37): a store is written once with Kysely's builder
 * (typed by schema.ts), and each adapter runs what it compiles to on its own connection — SQLite's
 * synchronous driver in its transactions, PostgreSQL's pool with its health watch and its audit
 * chain's lock. Kysely here only builds and compiles: it holds no connection (its DummyDriver), so
 * the adapters keep their transactions, errors and change notices as they are.
 */
export type Engine = 'sqlite' | 'postgres';

export type Queries = Kysely<Schema>;

const builders = new Map<Engine, Promise<Queries>>();

/**
 * The query builder for an engine's SQL: queries built with it are compiled, never run, by Kysely.
 * Kysely is loaded with the core, not at the first query: loaded late (a first alert check after a
 * sync), its ~0.3 s of module loading held a team server's or a host's event loop while consoles
 * were opening, and their first reads waited behind it.
 */
export function queriesFor(engine: Engine): Promise<Queries> {
  let q = builders.get(engine);
  if (!q) {
    q = Promise.resolve(
      new Kysely<Schema>({
        dialect:
          engine === 'sqlite'
            ? {
                createAdapter: () => new SqliteAdapter(),
                createDriver: () => new DummyDriver(),
                createIntrospector: (db) => new SqliteIntrospector(db),
                createQueryCompiler: () => new SqliteQueryCompiler(),
              }
            : {
                createAdapter: () => new PostgresAdapter(),
                createDriver: () => new DummyDriver(),
                createIntrospector: (db) => new PostgresIntrospector(db),
                createQueryCompiler: () => new PostgresQueryCompiler(),
              },
      }),
    );
    builders.set(engine, q);
  }
  return q;
}

/** Something Kysely can compile: a built query. */
export interface Compilable<R> {
  compile(): CompiledQuery<R>;
}

/** What a store that only reads needs of an adapter: the builder of its engine, and reads. */
export interface QueryReader {
  readonly engine: Engine;
  /** The builder of its engine's SQL (loaded at the first call). */
  queries(): Promise<Queries>;
  /** The rows a query returns. */
  all<R>(query: Compilable<R>): Promise<R[]>;
}

/**
 * What an adapter gives a store written over the query layer: the builder of its engine, reads,
 * and writes that land with their audit entry in one transaction.
 */
export interface QueryRunner extends QueryReader {
  /**
   * Runs `query` (a write, RETURNING what it wrote) and, when `audit` makes an entry of its rows,
   * appends it to the audit log: both or neither. Rows that make no entry (nothing was written)
   * append nothing.
   */
  audited<R>(query: Compilable<R>, audit: (rows: R[]) => AuditEntry | null): Promise<{ rows: R[]; record: AuditRecord | null }>;
  /** Runs the queries in order in one transaction (all or none), each one's rows in its place. */
  batch(queries: readonly Compilable<unknown>[]): Promise<unknown[][]>;
}

/** Whether an error is a unique constraint's refusal, in either engine's words. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/**
 * Every row of a read a window at a time (exports): `page(offset)` is read from 0 on, `size` rows
 * at a time, until a window comes back short.
 */
export async function* pages<T>(page: (offset: number) => T[] | Promise<T[]>, size: number): AsyncIterable<T[]> {
  for (let offset = 0; ; offset += size) {
    const rows = await page(offset);
    if (rows.length) yield rows;
    if (rows.length < size) return;
  }
}
