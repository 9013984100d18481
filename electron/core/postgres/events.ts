import type { EventFilter, EventListRow } from '../../../shared/ipc/contract.js';
import type { ConsentEvent } from '../../../shared/schemas/consent.js';
import { maskMessage } from '../cache/event-query.js';
import { isoMillis } from '../cache/payload-codec.js';
import { WEBHOOK_FAILURES, type EventRow, type EventStore } from '../events/port.js';
import { contentId } from '../sync/event-id.js';
import type { PgDb, Sql, Tx } from './db.js';

/**
 * The intermediary's consent events (part of schema version 1), read as the SQLite adapter reads
 * them (cache/event-query.ts on its SQL path, cache/events-repo.ts): the same rows, the same order,
 * the same tie-breaks.
 *
 * - `seq` is the order events were first stored in, as SQLite's rowid: of two events at the same
 *   instant, lists put the one stored last first, and a failure group's sample is the one stored last.
 *   An update keeps it (as an UPDATE keeps a rowid).
 * - `detail_key` is a webhook failure's response masked (maskMessage, the groups of the Webhook
 *   failures screen), computed when the event is stored so the grouping is one aggregate in SQL; null
 *   for other events. Should maskMessage ever change, a migration must compute it again.
 * - Text that SQLite compares bytewise is compared COLLATE "C" here (the database's own collation may
 *   be a locale's).
 *
 * Indexes: lists walk `events_by_time` (no type), `events_by_type` (one ordered scan per type, merged)
 * or `events_by_consent`, newest first; counts per type and per day are index-only scans of
 * `events_by_time` (which carries the type), reports' counts of `events_by_type` (which carries the
 * consent, for the failures per consent).
 */
export const EVENTS_SCHEMA = `
CREATE TABLE events (
  seq          bigint GENERATED ALWAYS AS IDENTITY,
  event_id     text PRIMARY KEY,
  consent_id   text NOT NULL,
  event_type   text NOT NULL,
  at           timestamptz NOT NULL,
  event_detail text,
  detail_key   text,
  payload      jsonb NOT NULL
);
CREATE INDEX events_by_time ON events (at, seq) INCLUDE (event_type);
CREATE INDEX events_by_type ON events (event_type, at, seq) INCLUDE (consent_id);
CREATE INDEX events_by_consent ON events (consent_id, at, seq);
`;

const FAILURE_TYPES: readonly string[] = WEBHOOK_FAILURES;

/** A failure's group key (maskMessage); null for events that are not webhook failures. */
const detailKeyOf = (e: ConsentEvent): string | null =>
  FAILURE_TYPES.includes(e.eventType) ? maskMessage((e.eventDetail as string | null | undefined) ?? null) : null;

/**
 * Stores a page of events as a sync does (an event already stored is kept once, and takes the new
 * content if it differs). New events are numbered (`seq`) in the page's order; of several copies of
 * one event in a page, the first one's place and the last one's content count, as in SQLite.
 */
export async function storeEvents(tx: Tx, events: readonly ConsentEvent[]): Promise<void> {
  const byId = new Map<string, { n: number; id: string; at: string; key: string | null; payload: ConsentEvent }>();
  for (const e of events) {
    const id = e.eventId ?? contentId(e);
    // The instant as SQLite's cache keeps it (event-columns.ts): an unreadable timestamp is the epoch.
    const ms = isoMillis(e.timestamp);
    byId.set(id, {
      n: byId.get(id)?.n ?? byId.size,
      id,
      at: new Date(Number.isFinite(ms) ? ms : 0).toISOString(),
      key: detailKeyOf(e),
      payload: e,
    });
  }
  if (!byId.size) return;
  await tx.query(
    `INSERT INTO events (event_id, consent_id, event_type, at, event_detail, detail_key, payload)
     SELECT id, payload->>'consentId', payload->>'eventType', at, payload->>'eventDetail', key, payload
     FROM jsonb_to_recordset($1::jsonb) AS x(n integer, id text, at timestamptz, key text, payload jsonb)
     ORDER BY n
     ON CONFLICT (event_id) DO UPDATE SET consent_id = excluded.consent_id, event_type = excluded.event_type, at = excluded.at,
       event_detail = excluded.event_detail, detail_key = excluded.detail_key, payload = excluded.payload
     WHERE events.payload <> excluded.payload`,
    [JSON.stringify([...byId.values()])],
  );
}

// ---- filters

/** A filter's conditions, numbered from a parameter list the caller keeps adding to. */
class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** An instant of a filter as the SQLite adapter compares it (milliseconds); null (nothing matches) if unreadable. */
function instant(text: string): string | null {
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

/** Distinct types, in their order (an IN list matches each once). */
const distinct = (types: readonly string[] | undefined): string[] => [...new Set(types ?? [])];

interface Conditions {
  consentId?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  /** Before this (at, seq), newest first: the windows' keyset. */
  before?: { at: string; seq: number } | undefined;
}

/** The conditions besides the type, ANDed (an empty string for none). */
function conditions(f: Conditions, p: Params, a = ''): string[] {
  const parts: string[] = [];
  if (f.consentId) parts.push(`${a}consent_id = ${p.add(f.consentId)}`);
  if (f.from) parts.push(`${a}at >= ${p.add(instant(f.from))}::timestamptz`);
  if (f.to) parts.push(`${a}at < ${p.add(instant(f.to))}::timestamptz`);
  if (f.before) parts.push(`(${a}at, ${a}seq) < (${p.add(f.before.at)}::timestamptz, ${p.add(f.before.seq)}::bigint)`);
  return parts;
}

const whereOf = (parts: string[]) => (parts.length ? `WHERE ${parts.join(' AND ')}` : '');

/** The filter's conditions with its types as one list (for aggregates over them all). */
function whereAll(f: Conditions & { types?: readonly string[] | undefined }, p: Params): string {
  const parts = conditions(f, p);
  const types = distinct(f.types);
  if (types.length) parts.unshift(`event_type = ANY(${p.add(types)}::text[])`);
  return whereOf(parts);
}

/**
 * The events of a filter, newest first (ties: stored last first), `limit` from `offset`: with types,
 * one index scan per type merged in order (an IN list would read and sort every event of them).
 */
function newestFirst(columns: string, f: Conditions & { types?: readonly string[] | undefined }, p: Params, limit: number, offset: number) {
  const types = distinct(f.types);
  const page = `ORDER BY at DESC, seq DESC LIMIT ${p.add(limit < 0 ? null : limit)}::bigint OFFSET ${p.add(Math.max(0, offset))}::bigint`;
  if (!types.length) return `SELECT ${columns} FROM events ${whereOf(conditions(f, p))} ${page}`;
  const branches = types.map((t) => `SELECT ${columns} FROM events ${whereOf([`event_type = ${p.add(t)}`, ...conditions(f, p)])}`);
  return `${branches.join(' UNION ALL ')} ${page}`;
}

// ---- rows

interface ListRecord extends EventListRow {
  seq: number;
}

const LIST_COLUMNS = 'seq, event_id, consent_id, event_type, at, event_detail';
const LIST_SELECT = `e.seq, e.event_id AS "eventId", e.consent_id AS "consentId", e.event_type AS "eventType", e.at AS "timestamp",
  e.event_detail AS "eventDetail", c.consumer_email AS "consumerEmail", c.data_holder_name AS "dataHolderName"`;

async function listRecords(
  db: Sql,
  filter: EventFilter,
  offset: number,
  limit: number,
  before?: { at: string; seq: number },
): Promise<ListRecord[]> {
  const p = new Params();
  const inner = newestFirst(LIST_COLUMNS, { ...filter, before }, p, limit, offset);
  return db.query<ListRecord>(
    `SELECT ${LIST_SELECT} FROM (${inner}) e LEFT JOIN consents c ON c.consent_id = e.consent_id ORDER BY e.at DESC, e.seq DESC`,
    p.values,
  );
}

const toListRow = ({ seq: _seq, ...row }: ListRecord): EventListRow => row;

const ROW = 'event_id AS "eventId", consent_id AS "consentId", event_type AS "eventType", at AS "timestamp", event_detail AS "eventDetail"';

/** Type counts: most first, then by type (bytewise), as the SQLite adapter sorts them. */
const byCountThenType = (a: { type: string; count: number }, b: { type: string; count: number }) =>
  b.count - a.count || (a.type < b.type ? -1 : a.type > b.type ? 1 : 0);

/** The machine's time zone: SQLite's days are the local calendar's ('localtime'). */
const localZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** Rows of an export: this many per window (the SQLite adapter's). */
const WINDOW = 1000;

/** Data collections in [from, to) per data holder, most first (then by name, bytewise). */
export function collectionsByHolder(db: Sql, from: string, to: string): Promise<{ dataHolderName: string; count: number }[]> {
  return db.query<{ dataHolderName: string; count: number }>(
    `SELECT coalesce(c.data_holder_name, 'Unknown data holder') AS "dataHolderName", count(*)::int AS count
     FROM events e LEFT JOIN consents c ON c.consent_id = e.consent_id
     WHERE e.event_type = 'DATA_COLLECTION_COMPLETED' AND e.at >= $1::timestamptz AND e.at < $2::timestamptz
     GROUP BY 1 ORDER BY count(*) DESC, coalesce(c.data_holder_name, 'Unknown data holder') COLLATE "C"`,
    [instant(from), instant(to)],
  );
}

export function pgEventStore(db: PgDb, opts: { window?: number } = {}): EventStore {
  const window = opts.window ?? WINDOW;
  return {
    list: async ({ filter, offset, limit }) => (await listRecords(db, filter, offset, limit)).map(toListRow),

    async count(filter) {
      const p = new Params();
      const types = (
        await db.query<{ type: string; count: number }>(
          `SELECT event_type AS type, count(*)::int AS count FROM events ${whereAll({ ...filter, types: undefined }, p)} GROUP BY event_type`,
          p.values,
        )
      ).sort(byCountThenType);
      const chosen = filter.types?.length ? new Set(filter.types) : undefined;
      return { total: types.filter((t) => !chosen || chosen.has(t.type)).reduce((n, t) => n + t.count, 0), types };
    },

    async days(filter, days) {
      const p = new Params();
      const zone = p.add(localZone());
      const rows = await db.query<{ day: string; type: string; n: number }>(
        `SELECT to_char(at AT TIME ZONE ${zone}, 'YYYY-MM-DD') AS day, event_type AS type, count(*)::int AS n
         FROM events ${whereAll(filter, p)} GROUP BY 1, 2 ORDER BY 1 DESC, 2`,
        p.values,
      );
      const byDay = new Map<string, Record<string, number>>();
      for (const r of rows) {
        const counts = byDay.get(r.day) ?? {};
        counts[r.type] = r.n;
        byDay.set(r.day, counts);
      }
      return [...byDay].slice(0, days).map(([day, counts]) => ({ day, counts, total: Object.values(counts).reduce((a, b) => a + b, 0) }));
    },

    async ofTypes(types, page, pageSize) {
      const list = distinct(types);
      if (!list.length) return { rows: [], total: 0 };
      const p = new Params();
      const limit = p.add(pageSize < 0 ? null : pageSize);
      const offset = p.add(Math.max(0, (page - 1) * pageSize));
      const branches = list.map(
        (t) => `SELECT seq, event_id, consent_id, event_type, at, event_detail FROM events WHERE event_type = ${p.add(t)}`,
      );
      const [rows, total] = await Promise.all([
        db.query<EventRow>(
          `SELECT ${ROW} FROM (${branches.join(' UNION ALL ')}) e
           ORDER BY at DESC, event_id COLLATE "C" DESC LIMIT ${limit}::bigint OFFSET ${offset}::bigint`,
          p.values,
        ),
        db.one<{ n: number }>('SELECT count(*)::int AS n FROM events WHERE event_type = ANY($1::text[])', [list]),
      ]);
      return { rows, total: total!.n };
    },

    forConsent: (consentId, limit) =>
      db.query<EventRow>(`SELECT ${ROW} FROM events WHERE consent_id = $1 ORDER BY at DESC, event_id COLLATE "C" DESC LIMIT $2::bigint`, [
        consentId,
        limit < 0 ? null : limit,
      ]),

    async failuresByMessage(filter, limit) {
      const p = new Params();
      const where = whereAll({ ...filter, types: FAILURE_TYPES }, p);
      // Groups most first, then latest first, then in the order first met oldest first (the SQLite
      // adapter's stable sort of its groups); each group's sample is its latest message (of two at the
      // same instant, the one stored last).
      const rows = await db.query<{
        key: string;
        sample: string | null;
        count: number;
        consents: number;
        firstSeen: string;
        lastSeen: string;
        types: string[];
      }>(
        `SELECT detail_key AS key, (array_agg(event_detail ORDER BY at DESC, seq DESC))[1] AS sample, count(*)::int AS count,
           count(DISTINCT consent_id)::int AS consents, min(at) AS "firstSeen", max(at) AS "lastSeen",
           array_agg(DISTINCT event_type COLLATE "C" ORDER BY event_type COLLATE "C") AS types
         FROM events ${where}
         GROUP BY detail_key
         ORDER BY count DESC, max(at) DESC, min(at), (array_agg(seq ORDER BY at, seq))[1]
         LIMIT ${p.add(limit < 0 ? null : limit)}::bigint`,
        p.values,
      );
      return rows;
    },

    async failuresByConsent(filter, limit) {
      const p = new Params();
      const where = whereAll({ ...filter, types: FAILURE_TYPES }, p);
      const order = (a: string) => `${a}max_retries > 0 DESC, ${a}failures DESC, ${a}last_at DESC, ${a}consent_id COLLATE "C"`;
      return db.query(
        `SELECT f.consent_id AS "consentId", c.consumer_email AS "consumerEmail", c.data_holder_name AS "dataHolderName",
           f.failures, f.max_retries AS "maxRetries", f.last_at AS "lastAt"
         FROM (
           SELECT * FROM (
             SELECT consent_id, count(*)::int AS failures,
               count(*) FILTER (WHERE event_type = 'WEBHOOK_MAX_RETRIES_REACHED')::int AS max_retries, max(at) AS last_at
             FROM events ${where} GROUP BY consent_id
           ) g ORDER BY ${order('g.')} LIMIT ${p.add(limit < 0 ? null : limit)}::bigint
         ) f LEFT JOIN consents c ON c.consent_id = f.consent_id
         ORDER BY ${order('f.')}`,
        p.values,
      );
    },

    async consentsWithFailures(filter) {
      const p = new Params();
      const row = await db.one<{ n: number }>(
        `SELECT count(DISTINCT consent_id)::int AS n FROM events ${whereAll({ ...filter, types: FAILURE_TYPES }, p)}`,
        p.values,
      );
      return row!.n;
    },

    collectionsByHolder: (from, to) => collectionsByHolder(db, from, to),

    // Windows by keyset (before the last row of the window before): the same rows as windows by
    // offset while nothing is stored meanwhile, without reading the skipped rows again each window.
    async *windows(filter) {
      let before: { at: string; seq: number } | undefined;
      for (;;) {
        const rows = await listRecords(db, filter, 0, window, before);
        if (rows.length) yield rows.map(toListRow);
        if (rows.length < window) return;
        const last = rows.at(-1)!;
        before = { at: last.timestamp, seq: last.seq };
      }
    },
  };
}
