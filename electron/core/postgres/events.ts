import type { EventFilter, EventListRow, WebhookSummary } from '../../../shared/ipc/contract.js';
import { dayCounts } from '../events/day-counts.js';
import type { ConsentEvent } from '../../../shared/schemas/consent.js';
import { maskMessage } from '../events/mask.js';
import { isoMillis } from '../events/instant.js';
import { EVENT_WINDOW, WEBHOOK_FAILURES, type EventStore } from '../events/port.js';
import { contentId } from '../sync/event-id.js';
import type { PgDb, Sql, Tx } from './db.js';
import type { ReadMemo } from './read-memo.js';
import { eventReads } from '../events/reads.js';
import { pgQueryReader } from './query-runner.js';
import { machineTimeZone } from '../../../shared/time/zone.js';

/**
 * The intermediary's consent events (part of schema version 1). The counts per type, the failures
 * per consent and the collections per data holder are the reads written once for both engines
 * (events/reads.ts); the lists, the days and the failure groups are this engine's own, shaped for
 * its indexes, and answer as the SQLite adapter's (cache/event-query.ts on its SQL path,
 * cache/events-repo.ts) — the same rows, the same order, the same tie-breaks.
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
const FAILURE_TYPES: readonly string[] = WEBHOOK_FAILURES;

/** A failure's group key (maskMessage); null for events that are not webhook failures. */
const detailKeyOf = (e: ConsentEvent): string | null =>
  FAILURE_TYPES.includes(e.eventType) ? maskMessage((e.eventDetail as string | null | undefined) ?? null) : null;

/**
 * Stores a page of events as a sync does (an event already stored is kept once, and takes the new
 * content if it differs). New events are numbered (`seq`) in the page's order; of several copies of
 * one event in a page, the first one's place and the last one's content count, as in SQLite. How
 * many were new or changed; the consents of those go into `touched` (an incremental sync reads them again).
 */
export async function storeEvents(
  tx: Tx,
  events: readonly ConsentEvent[],
  touched?: Set<string>,
): Promise<{ new: number; changed: number }> {
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
  if (!byId.size) return { new: 0, changed: 0 };
  const written = await tx.query<{ consent_id: string; inserted: boolean }>(
    `INSERT INTO events (event_id, consent_id, event_type, at, event_detail, detail_key, payload)
     SELECT id, payload->>'consentId', payload->>'eventType', at, payload->>'eventDetail', key, payload
     FROM jsonb_to_recordset($1::jsonb) AS x(n integer, id text, at timestamptz, key text, payload jsonb)
     ORDER BY n
     ON CONFLICT (event_id) DO UPDATE SET consent_id = excluded.consent_id, event_type = excluded.event_type, at = excluded.at,
       event_detail = excluded.event_detail, detail_key = excluded.detail_key, payload = excluded.payload
     WHERE events.payload <> excluded.payload
     RETURNING consent_id, xmax = 0 AS inserted`,
    [JSON.stringify([...byId.values()])],
  );
  for (const r of written) touched?.add(r.consent_id);
  const added = written.filter((r) => r.inserted).length;
  return { new: added, changed: written.length - added };
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
  /** At or before this (at, seq): a marked key (KeyMarks). */
  atOrBefore?: { at: string; seq: number } | undefined;
}

/** The conditions besides the type, ANDed (an empty string for none). */
function conditions(f: Conditions, p: Params, a = ''): string[] {
  const parts: string[] = [];
  if (f.consentId) parts.push(`${a}consent_id = ${p.add(f.consentId)}`);
  if (f.from) parts.push(`${a}at >= ${p.add(instant(f.from))}::timestamptz`);
  if (f.to) parts.push(`${a}at < ${p.add(instant(f.to))}::timestamptz`);
  if (f.before) parts.push(`(${a}at, ${a}seq) < (${p.add(f.before.at)}::timestamptz, ${p.add(f.before.seq)}::bigint)`);
  if (f.atOrBefore) parts.push(`(${a}at, ${a}seq) <= (${p.add(f.atOrBefore.at)}::timestamptz, ${p.add(f.atOrBefore.seq)}::bigint)`);
  return parts;
}

const whereOf = (parts: string[]) => (parts.length ? `WHERE ${parts.join(' AND ')}` : '');

/** The filter's conditions with its types as one list (for aggregates over them all), and any more. */
function whereAll(f: Conditions & { types?: readonly string[] | undefined }, p: Params, more: string[] = []): string {
  const parts = conditions(f, p);
  const types = distinct(f.types);
  if (types.length) parts.unshift(`event_type = ANY(${p.add(types)}::text[])`);
  return whereOf([...parts, ...more]);
}

/**
 * The events of a filter in an order, `limit` from `offset`. With types, each type's newest
 * `offset + limit` (an ordered scan of its index range, stopped there) are merged and ordered: an IN
 * list, or a UNION ALL ordered as a whole, reads and sorts every event of the types.
 */
const NEWEST_FIRST = 'at DESC, seq DESC';
/** From this offset on, a window starts from the key at the offset (below it, OFFSET itself is as cheap). */
export const SKIP_BY_KEY = 200;

function ordered(
  columns: string,
  f: Conditions & { types?: readonly string[] | undefined },
  p: Params,
  limit: number,
  offset: number,
  order = NEWEST_FIRST,
) {
  const types = distinct(f.types);
  const start = Math.max(0, offset);
  if (start >= SKIP_BY_KEY && limit >= 0 && order === NEWEST_FIRST && types.length <= 1) {
    // Deep in the list: the offset is walked on an index's keys alone (at, seq: an index-only scan of
    // events_by_time or events_by_type), and the window read from the key found, not every row skipped.
    const only = (): string[] => [...(types.length ? [`event_type = ${p.add(types[0])}`] : []), ...conditions(f, p)];
    const key = `(SELECT at, seq FROM events ${whereOf(only())} ORDER BY ${order} LIMIT 1 OFFSET ${p.add(start)}::bigint)`;
    return `SELECT ${columns} FROM events ${whereOf([...only(), `(at, seq) <= ${key}`])} ORDER BY ${order} LIMIT ${p.add(limit)}::bigint`;
  }
  const page = `ORDER BY ${order} LIMIT ${p.add(limit < 0 ? null : limit)}::bigint OFFSET ${p.add(start)}::bigint`;
  if (!types.length) return `SELECT ${columns} FROM events ${whereOf(conditions(f, p))} ${page}`;
  const enough = p.add(limit < 0 ? null : start + limit);
  const branches = types.map(
    (t) =>
      `(SELECT ${columns} FROM events ${whereOf([`event_type = ${p.add(t)}`, ...conditions(f, p)])} ORDER BY ${order} LIMIT ${enough}::bigint)`,
  );
  return `SELECT * FROM (${branches.join(' UNION ALL ')}) u ${page}`;
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
  marks?: KeyMarks,
): Promise<ListRecord[]> {
  const p = new Params();
  const mark = !before && offset >= SKIP_BY_KEY && limit >= 0 ? marks?.near(filter, offset) : undefined;
  const inner = mark
    ? // From the key marked at or before the offset: at most MARK_EVERY - 1 index entries walked.
      ordered(LIST_COLUMNS, { ...filter, atOrBefore: mark.key }, p, limit, offset - mark.offset)
    : ordered(LIST_COLUMNS, { ...filter, before }, p, limit, offset);
  return db.query<ListRecord>(
    `SELECT ${LIST_SELECT} FROM (${inner}) e LEFT JOIN consents c ON c.consent_id = e.consent_id ORDER BY e.at DESC, e.seq DESC`,
    p.values,
  );
}

const toListRow = ({ seq: _seq, ...row }: ListRecord): EventListRow => row;

/** Every how many events of a list a key is marked (KeyMarks). */
export const MARK_EVERY = 128;

/**
 * Keys marked along a list's order, every MARK_EVERY events, so a window anywhere in a million
 * events starts from the nearest mark instead of walking the offset: an index that makes OFFSET
 * cheap, kept by the team server in memory for the lists asked deep (no filter, or one type). The
 * marks hold for the generation of the server's shared reads (read-memo.ts) they were read at: a
 * change heard of (a sync's commit here or on another server, an action) and they are read again;
 * until they are, a window walks its offset as without them.
 */
class KeyMarks {
  private readonly lists = new Map<string, Marks>();
  constructor(
    private readonly db: Sql,
    private readonly memo: ReadMemo,
    private readonly ttlMs = 10_000,
  ) {}

  /** The mark at or before `offset` in the filter's list, when marks for it are read and current. */
  near(filter: EventFilter, offset: number): { key: { at: string; seq: number }; offset: number } | undefined {
    const types = distinct(filter.types);
    if (types.length > 1) return undefined;
    const name = JSON.stringify([types[0] ?? null, filter.consentId ?? null, filter.from ?? null, filter.to ?? null]);
    const generation = this.memo.generation();
    let list = this.lists.get(name);
    if (!list || list.generation !== generation) {
      if (this.lists.size >= 16) this.lists.clear();
      list = { generation, at: -Infinity, keys: undefined, reading: false };
      this.lists.set(name, list);
    }
    // Read (again, when older than ttlMs: a change no notice told of); meanwhile the marks held serve.
    if (!list.reading && performance.now() - list.at >= this.ttlMs) this.read(name, list, types[0], filter);
    const keys = list.keys;
    if (!keys?.length) return undefined;
    const i = Math.min(Math.floor(offset / MARK_EVERY), keys.length - 1);
    return { key: keys[i]!, offset: i * MARK_EVERY };
  }

  private read(name: string, list: Marks, type: string | undefined, filter: EventFilter): void {
    list.reading = true;
    const started = performance.now();
    const p = new Params();
    const where = whereOf([...(type ? [`event_type = ${p.add(type)}`] : []), ...conditions(filter, p)]);
    this.db
      .query<{ at: string; seq: number }>(
        `SELECT at, seq FROM (SELECT at, seq, row_number() OVER (ORDER BY ${NEWEST_FIRST}) AS r FROM events ${where}) x
         WHERE (r - 1) % ${MARK_EVERY} = 0 ORDER BY r`,
        p.values,
      )
      .then(
        (keys) => {
          // Kept only if nothing changed while they were read (the generation they were read for).
          if (this.memo.generation() === list.generation && this.lists.get(name) === list) {
            list.keys = keys;
            list.at = started;
          }
        },
        () => undefined,
      )
      .finally(() => (list.reading = false));
  }
}

interface Marks {
  generation: number;
  /** When the keys held were read (performance.now()). */
  at: number;
  keys: { at: string; seq: number }[] | undefined;
  reading: boolean;
}

export function pgEventStore(db: PgDb, opts: { window?: number; memo?: ReadMemo } = {}): EventStore {
  const window = opts.window ?? EVENT_WINDOW;
  const marks = opts.memo ? new KeyMarks(db, opts.memo) : undefined;
  // The reads written once for both engines.
  const reads = eventReads(pgQueryReader(db));
  return {
    list: async ({ filter, offset, limit }) => (await listRecords(db, filter, offset, limit, undefined, marks)).map(toListRow),

    count: reads.count,

    async days(filter, days, timeZone) {
      const zone = timeZone ?? machineTimeZone();
      const p0 = new Params();
      const newest = (await db.one<{ t: string | null }>(`SELECT max(at) AS t FROM events ${whereAll(filter, p0)}`, p0.values))?.t;
      if (!newest) return [];
      /** The local midnight `span` days before the newest event's day. */
      const since = (p: Params, span: number) => {
        const z = p.add(zone);
        return `(date_trunc('day', ${p.add(newest)}::timestamptz AT TIME ZONE ${z}) - make_interval(days => ${p.add(span)}::int)) AT TIME ZONE ${z}`;
      };
      // The newest days only (most of a million events are older), reaching further back while
      // fewer days than asked have events and older events remain.
      let rows: { day: string; type: string; n: number }[] = [];
      for (let span = Math.max(0, days - 1); ; span = span * 4 + 1) {
        const p = new Params();
        const z = p.add(zone);
        rows = await db.query<{ day: string; type: string; n: number }>(
          `SELECT to_char(d, 'YYYY-MM-DD') AS day, type, n FROM (
             SELECT (at AT TIME ZONE ${z})::date AS d, event_type AS type, count(*)::int AS n
             FROM events ${whereAll(filter, p, [`at >= ${since(p, span)}`])} GROUP BY 1, 2
           ) x ORDER BY d DESC, type COLLATE "C"`,
          p.values,
        );
        if (new Set(rows.map((r) => r.day)).size >= days) break;
        const q = new Params();
        const older = await db.one<{ e: boolean }>(
          `SELECT EXISTS (SELECT 1 FROM events ${whereAll(filter, q, [`at < ${since(q, span)}`])}) AS e`,
          q.values,
        );
        if (!older!.e) break;
      }
      return dayCounts(rows, days);
    },

    ofTypes: reads.ofTypes,
    forConsent: reads.forConsent,

    async failuresByMessage(filter, limit) {
      // Groups most first, then latest first, then in the order first met oldest first (the SQLite
      // adapter's stable sort of its groups); each group's sample is its latest message (of two at the
      // same instant, the one stored last). Over the failures' own index (events_failures), the sample
      // and the first one met looked up per group.
      const p = new Params();
      const where = whereAll({ ...filter, types: FAILURE_TYPES }, p, ['detail_key IS NOT NULL']);
      const same = whereAll({ ...filter, types: FAILURE_TYPES }, p, ['detail_key = g.key']);
      return db.query<WebhookSummary['byMessage'][number]>(
        `SELECT g.key, s.event_detail AS sample, g.count, g.consents, g.first_at AS "firstSeen", g.last_at AS "lastSeen", g.types
         FROM (
           SELECT g.*, f.seq AS first_seq FROM (
             SELECT detail_key AS key, count(*)::int AS count, count(DISTINCT consent_id)::int AS consents, min(at) AS first_at, max(at) AS last_at,
               array_agg(DISTINCT event_type COLLATE "C" ORDER BY event_type COLLATE "C") AS types
             FROM events ${where} GROUP BY detail_key
           ) g CROSS JOIN LATERAL (SELECT seq FROM events ${same} ORDER BY at, seq LIMIT 1) f
           ORDER BY g.count DESC, g.last_at DESC, g.first_at, f.seq LIMIT ${p.add(limit < 0 ? null : limit)}::bigint
         ) g CROSS JOIN LATERAL (SELECT event_detail FROM events ${same} ORDER BY at DESC, seq DESC LIMIT 1) s
         ORDER BY g.count DESC, g.last_at DESC, g.first_at, g.first_seq`,
        p.values,
      );
    },

    failuresByConsent: reads.failuresByConsent,
    consentsWithFailures: reads.consentsWithFailures,
    collectionsByHolder: reads.collectionsByHolder,

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
