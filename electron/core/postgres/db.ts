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

/** Codes of a connection that broke or could not be made: the server restarted, stopped or cannot be reached. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01', // admin_shutdown (a fast or smart stop)
  '57P02', // crash_shutdown (another backend crashed)
  '57P03', // cannot_connect_now (starting up, shutting down, recovering)
  '08000',
  '08001',
  '08003',
  '08006',
]);

/**
 * Whether an error says the connection to PostgreSQL was lost or cannot be made, rather than that a
 * statement failed: by its code, or by the words `pg` uses for a connection it saw end (no code).
 */
export function isConnectionLoss(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = String((error as { code?: unknown }).code ?? '');
  if (CONNECTION_CODES.has(code)) return true;
  return /Connection terminated|connection error and is not queryable|Client was closed and is not queryable|terminating connection/i.test(
    error.message,
  );
}

/** Whether this process reaches its PostgreSQL, as its own queries found (and since when). */
export interface DatabaseHealth {
  state: 'ok' | 'unreachable';
  /** When it became so (ISO 8601, UTC). */
  since: string;
  /** Why it is unreachable, in words; null when ok. */
  problem: string | null;
}

export interface PgDbOptions {
  /** Connections in the pool (default 8). */
  max?: number;
  /** The name this process gives its connections (pg_stat_activity.application_name). */
  applicationName?: string;
  /** Told about a connection the pool lost while idle (the server restarted, the network dropped). */
  onError?: (error: Error) => void;
  /** How often, while unreachable, the database is tried again (ms, default 1000). */
  probeMs?: number;
}

export class PgDb implements Sql {
  readonly pool: pg.Pool;
  private healthNow: DatabaseHealth = { state: 'ok', since: new Date().toISOString(), problem: null };
  private readonly watchers = new Set<(health: DatabaseHealth) => void>();
  private probe: ReturnType<typeof setTimeout> | undefined;
  private closed = false;
  private readonly probeMs: number;

  constructor(connectionString: string, opts: PgDbOptions = {}) {
    this.probeMs = opts.probeMs ?? 1_000;
    this.pool = new pg.Pool({
      connectionString,
      max: opts.max ?? 8,
      application_name: opts.applicationName ?? 'cdr-console',
      // Instants read and written in UTC whatever the server's or the role's default zone is.
      options: '-c TimeZone=UTC',
      types,
    });
    // An idle client's error (the server went away) must not crash the process: the pool drops it.
    this.pool.on('error', (e) => {
      this.lost(e);
      opts.onError?.(e);
    });
    // Nor may a checked-out client's (a lock held for a sync, a batch between pages): the pool listens
    // only while a client is idle, and an 'error' nobody hears ends the process. Its holder learns of
    // it at its next query (the client is no longer queryable) and the pool drops it when released.
    this.pool.on('connect', (client) => client.on('error', (e) => this.lost(e)));
  }

  /** Whether the database is reachable, as this process's queries found it. */
  get health(): DatabaseHealth {
    return this.healthNow;
  }

  /** Told when the database becomes unreachable and when it is back; returns the unsubscribe. */
  watchHealth(listener: (health: DatabaseHealth) => void): () => void {
    this.watchers.add(listener);
    return () => this.watchers.delete(listener);
  }

  /** A connection broke or could not be made: unreachable until a query succeeds again (tried every probeMs). */
  lost(error: unknown): void {
    if (this.closed || !isConnectionLoss(error)) return;
    if (this.healthNow.state === 'unreachable') return;
    this.setHealth({
      state: 'unreachable',
      since: new Date().toISOString(),
      problem: `The team database cannot be reached (${(error as Error).message}); reconnecting.`,
    });
    this.scheduleProbe();
  }

  private reached(): void {
    if (this.healthNow.state === 'ok' || this.closed) return;
    if (this.probe) clearTimeout(this.probe);
    this.probe = undefined;
    this.setHealth({ state: 'ok', since: new Date().toISOString(), problem: null });
  }

  private setHealth(health: DatabaseHealth): void {
    this.healthNow = health;
    for (const w of this.watchers) {
      try {
        w(health);
      } catch {
        // A watcher's failure is its own.
      }
    }
  }

  private scheduleProbe(): void {
    if (this.probe || this.closed) return;
    this.probe = setTimeout(() => {
      this.probe = undefined;
      if (this.closed || this.healthNow.state === 'ok') return;
      void this.query('SELECT 1').catch(() => this.scheduleProbe());
    }, this.probeMs);
    this.probe.unref();
  }

  /** Runs a query's promise, telling the health what it found. */
  private async watched<T>(work: Promise<T>): Promise<T> {
    try {
      const result = await work;
      this.reached();
      return result;
    } catch (error) {
      this.lost(error);
      throw error;
    }
  }

  query<R extends object = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<R[]> {
    return this.watched(sqlOf(this.pool).query<R>(text, params));
  }

  one<R extends object = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<R | undefined> {
    return this.watched(sqlOf(this.pool).one<R>(text, params));
  }

  /** Runs `fn` in one transaction on one client: committed when it resolves, rolled back when it throws. */
  tx<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.watched(this.inTx(fn));
  }

  private async inTx<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const sql = clientTx(client);
      const result = await fn(sql);
      await client.query('COMMIT');
      return result;
    } catch (e) {
      // A connection that cannot even roll back is dropped, not given to the next caller.
      await client.query('ROLLBACK').catch((r: Error) => void (broken = r));
      throw e;
    } finally {
      client.release(broken);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.probe) clearTimeout(this.probe);
    this.probe = undefined;
    this.watchers.clear();
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
