import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream, writeFileSync, type WriteStream } from 'node:fs';
import type { AuditFilter, EventFilter, Job } from '../../../shared/ipc/contract.js';
import type { AuditRecord, AuditVerification } from '../audit/port.js';
import type { AuditStore } from '../audit/port.js';
import type { EventStore } from '../events/port.js';
import type { JobContext } from '../jobs/jobs.js';
import { csvRows } from './csv.js';
import { machineTimeZone, zonedDateTime } from '../../../shared/time/zone.js';

/**
 * Exports of the event log and the audit log: streamed a window at a time to a file only the user
 * can read (never whole in memory), as CSV or JSON, with the SHA-256 of what was written.
 */
type Result = NonNullable<Job['result']>;

class HashedFile {
  private readonly out: WriteStream;
  private readonly hash = createHash('sha256');
  bytes = 0;
  constructor(path: string) {
    this.out = createWriteStream(path, { mode: 0o600 });
  }
  async write(text: string): Promise<void> {
    this.hash.update(text);
    this.bytes += Buffer.byteLength(text);
    if (!this.out.write(text)) await once(this.out, 'drain');
  }
  async close(rows: number): Promise<Result> {
    this.out.end();
    await once(this.out, 'finish');
    return { rows, bytes: this.bytes, sha256: this.hash.digest('hex') };
  }
  destroy(): void {
    this.out.destroy();
  }
}

export async function streamed<T>(
  path: string,
  format: 'csv' | 'json',
  header: string[],
  windows: AsyncIterable<T[]> | Iterable<T[]>,
  cells: (row: T) => string[],
  /** A row as JSON; may be a promise (a row that needs another read). */
  json: (row: T) => unknown,
  opts: { signal?: AbortSignal; onRows?: (n: number) => void; trailer?: unknown } = {},
): Promise<Result> {
  const file = new HashedFile(path);
  let rows = 0;
  try {
    await file.write(format === 'csv' ? csvRows([header]) : '{"rows":[\n');
    for await (const window of windows) {
      if (opts.signal?.aborted) throw new Error('cancelled');
      let text: string;
      if (format === 'csv') text = csvRows(window.map(cells));
      else {
        const parts: string[] = [];
        for (const [i, r] of window.entries()) {
          const value = json(r);
          parts.push(`${rows + i === 0 ? '' : ',\n'}${JSON.stringify(value instanceof Promise ? await value : value)}`);
        }
        text = parts.join('');
      }
      await file.write(text);
      rows += window.length;
      opts.onRows?.(rows);
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (format === 'json') await file.write(`\n]${opts.trailer === undefined ? '' : `,${JSON.stringify(opts.trailer).slice(1, -1)}`}}\n`);
    return await file.close(rows);
  } catch (error) {
    file.destroy();
    throw error;
  }
}

/**
 * The event log (or a filtered part of it). Each time is given in UTC, as stored, and last in
 * `timeZone` (the console's; the host's when absent), the column naming the zone: a last column, so
 * a script that read the columns before issue 34 reads them still.
 */
export async function writeEventsExport(
  query: EventStore,
  filter: EventFilter,
  format: 'csv' | 'json',
  path: string,
  ctx: JobContext,
  timeZone: string = machineTimeZone(),
) {
  const total = (await query.count(filter)).total;
  ctx.progress({ total, done: 0 });
  return streamed(
    path,
    format,
    ['Time (UTC)', 'Event', 'Consent id', 'Consumer e-mail', 'Data holder', 'Detail', 'Event id', `Time (${timeZone})`],
    query.windows(filter),
    (e) => [
      e.timestamp,
      e.eventType,
      e.consentId,
      e.consumerEmail ?? '',
      e.dataHolderName ?? '',
      e.eventDetail ?? '',
      e.eventId,
      zonedDateTime(e.timestamp, timeZone),
    ],
    (e) => ({ ...e, localTime: zonedDateTime(e.timestamp, timeZone), timeZone }),
    { signal: ctx.signal, onRows: (done) => ctx.progress({ done }) },
  );
}

const AUDIT_COLUMNS = ['seq', 'at', 'operator', 'action', 'target', 'reason', 'result', 'prevHash', 'hash'] as const;
/**
 * What the team store's entries add, last, as they are part of their hash: the client, then the
 * signed-in person (user id, display name, role, how they signed in; empty for entries nobody
 * signed in caused).
 */
const TEAM_COLUMNS = ['client', 'user_id', 'display_name', 'role', 'sign_in_method'] as const;
const teamCells = (e: AuditRecord) => [
  e.client ?? '',
  e.person?.userId ?? '',
  e.person?.displayName ?? '',
  e.person?.role ?? '',
  e.person?.method ?? '',
];

/**
 * The audit log (or a filtered part of it) with the hashes, and the chain's verification at export
 * time. The team store's entries add columns: the client and the signed-in person. The very last
 * column gives each entry's time in `timeZone` (the console's; the host's when absent), naming it:
 * not part of the hash, and after every column a script read before issue 34.
 */
export function writeAuditExport(
  query: AuditStore,
  verification: AuditVerification,
  filter: AuditFilter,
  format: 'csv' | 'json',
  path: string,
  signal?: AbortSignal,
  timeZone: string = machineTimeZone(),
) {
  // A store whose entries hash their client exports it too, so the CSV can be checked again.
  const header = [...AUDIT_COLUMNS, ...(query.keepsClient ? TEAM_COLUMNS : []), `at (${timeZone})`];
  return streamed(
    path,
    format,
    header,
    query.windows(filter),
    (e) => [
      String(e.seq),
      e.at,
      e.operator,
      e.action,
      e.target ?? '',
      e.reason ?? '',
      e.result,
      e.prevHash,
      e.hash,
      ...(query.keepsClient ? teamCells(e) : []),
      zonedDateTime(e.at, timeZone),
    ],
    (e) => ({ ...e, localTime: zonedDateTime(e.at, timeZone), timeZone }),
    { ...(signal ? { signal } : {}), trailer: { verification } },
  );
}

export async function writeText(path: string, text: string, rows: number): Promise<Result> {
  writeFileSync(path, text, { mode: 0o600 });
  return { rows, bytes: Buffer.byteLength(text), sha256: createHash('sha256').update(text).digest('hex') };
}

/**
 * The whole audit log as one text, CSV (RFC 4180) or JSON, with the hashes so an auditor can
 * re-check the chain. The form of `audit:export` and `cli audit export` since they exist (a plain
 * header line; every cell quoted, a formula's first character neutralised): kept as it is. Entries
 * that carry their client (the team store's) add it and the signed-in person as last columns, as
 * they are part of their hash.
 */
export function auditText(all: readonly AuditRecord[], format: 'csv' | 'json', withClient = all.some((e) => e.client)): string {
  if (format === 'json') return `${JSON.stringify(all, null, 2)}\n`;
  const cell = (v: unknown) => {
    const s = v === null || v === undefined ? '' : String(v);
    return `"${(/^[=+\-@]/.test(s) ? `'${s}` : s).replaceAll('"', '""')}"`;
  };
  const header = [...AUDIT_COLUMNS, ...(withClient ? TEAM_COLUMNS : [])];
  const row = (e: AuditRecord) => [...AUDIT_COLUMNS.map((h) => cell(e[h])), ...(withClient ? teamCells(e).map(cell) : [])].join(',');
  return `${[header.join(','), ...all.map(row)].join('\r\n')}\r\n`;
}
