import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * The PostgreSQL adapter's connection: a pool of `pg` clients, queries with parameters, one
 * transaction at a time per client, and COPY for bulk loads. Types come back as the ports want
 * them: bigint and counts as numbers (every count and sequence here is far below 2^53), instants
 * (timestamptz) as ISO 8601 strings in UTC with milliseconds, like the SQLite adapter's.
 */
export interface Sql {
  query<R extends object = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<R[]>;
  one<R extends object = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<R | undefined>;
}

/** A transaction: queries on its one client, and COPY into a table. */
export interface Tx extends Sql {
  copy(table: string, columns: readonly string[], rows: Iterable<readonly unknown[]>): Promise<void>;
}

const INT8 = 20;
const NUMERIC = 1700;
const TIMESTAMPTZ = 1184;
const TIMESTAMP = 1114;

/** int8 as a number, timestamptz as an ISO string; everything else as pg parses it. */
const types = {
  getTypeParser(oid: number, format?: string) {
    if (format !== 'binary') {
      if (oid === INT8) return (v: string) => Number(v);
      if (oid === NUMERIC) return (v: string) => Number(v);
      if (oid === TIMESTAMPTZ || oid === TIMESTAMP)
        return (v: string) => new Date(v.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00')).toISOString();
    }
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

function sqlOf(client: pg.Pool | pg.PoolClient | pg.Client): Sql {
  return {
    async query<R extends object>(text: string, params?: readonly unknown[]) {
      return (await client.query<R>(text, params as unknown[] | undefined)).rows;
    },
    async one<R extends object>(text: string, params?: readonly unknown[]): Promise<R | undefined> {
      return (await client.query<R>(text, params as unknown[] | undefined)).rows[0] as R | undefined;
    },
  };
}

/** One row of a COPY … FROM STDIN (text format): values in column order, null as \N. */
export function copyLine(values: readonly unknown[]): string {
  return (
    values
      .map((v) => {
        if (v === null || v === undefined) return '\\N';
        const s = typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
        return s.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
      })
      .join('\t') + '\n'
  );
}

export interface PgDbOptions {
  /** Connections in the pool (default 8). */
  max?: number;
  /** The name this process gives its connections (pg_stat_activity.application_name). */
  applicationName?: string;
  /** Told about a connection the pool lost while idle (the server restarted, the network dropped). */
  onError?: (error: Error) => void;
}

export class PgDb implements Sql {
  readonly pool: pg.Pool;

  constructor(connectionString: string, opts: PgDbOptions = {}) {
    this.pool = new pg.Pool({
      connectionString,
      max: opts.max ?? 8,
      application_name: opts.applicationName ?? 'cdr-console',
      // Instants read and written in UTC whatever the server's or the role's default zone is.
      options: '-c TimeZone=UTC',
      types,
    });
    // An idle client's error (the server went away) must not crash the process: the pool drops it.
    this.pool.on('error', (e) => opts.onError?.(e));
  }

  query<R extends object = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<R[]> {
    return sqlOf(this.pool).query<R>(text, params);
  }

  one<R extends object = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<R | undefined> {
    return sqlOf(this.pool).one<R>(text, params);
  }

  /** Runs `fn` in one transaction on one client: committed when it resolves, rolled back when it throws. */
  async tx<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const sql = clientTx(client);
      const result = await fn(sql);
      await client.query('COMMIT');
      return result;
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw e;
    } finally {
      client.release();
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

/** Queries and COPY on one client (inside its transaction, if one is open). */
export function clientTx(client: pg.PoolClient | pg.Client): Tx {
  return {
    ...sqlOf(client),
    copy: (table: string, columns: readonly string[], rows: Iterable<readonly unknown[]>) => copyRows(client, table, columns, rows),
  };
}

/** COPY rows into a table's columns on this client (inside its transaction, if one is open). */
export async function copyRows(
  client: pg.PoolClient | pg.Client,
  table: string,
  columns: readonly string[],
  rows: Iterable<readonly unknown[]>,
): Promise<void> {
  const stream = client.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN`));
  await pipeline(
    Readable.from(
      (function* () {
        for (const r of rows) yield copyLine(r);
      })(),
    ),
    stream,
  );
}
