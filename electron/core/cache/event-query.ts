import type { Db } from './db.js';
import { dayCounts } from '../events/day-counts.js';
import { typeCounts, UNKNOWN_HOLDER } from '../events/type-counts.js';
import { dayOfInstant, machineTimeZone } from '../../../shared/time/zone.js';
import type { WebhookSummary } from '../../../shared/ipc/contract.js';
import { EventIndex, type EventIndexFilter } from './event-index.js';
import { addedTo, Rebuilder, TablesVersion, type ReadIndexOptions } from './read-index.js';

/**
 * Reads of the consent events across consents, for the Events and Webhook failures screens and the
 * overview: windows of rows for a filter (newest first), counts per type, counts per day, and the
 * webhook failures grouped by what the target answered and by consent. The interface speaks in
 * filters and rows. The reads written once for both engines (events/reads.ts: counts per type,
 * failures per consent, collections per data holder) are answered here only from the index, and
 * return undefined while it is not current; the rest fall back to SQL here.
 */
export interface EventListFilter {
  types?: readonly string[] | undefined;
  consentId?: string | undefined;
  /** ISO 8601 instants: from inclusive, to exclusive. */
  from?: string | undefined;
  to?: string | undefined;
}

export interface EventListRow {
  eventId: string;
  consentId: string;
  eventType: string;
  timestamp: string;
  eventDetail: string | null;
  consumerEmail: string | null;
  dataHolderName: string | null;
}

import { maskMessage } from '../events/mask.js';
import { WEBHOOK_FAILURES } from '../events/port.js';
export { WEBHOOK_FAILURES };
export { WEBHOOK_DELIVERIES } from '../../../shared/consents/webhooks.js';

interface Where {
  sql: string;
  params: (string | number)[];
}

function whereOf(f: EventListFilter, alias = ''): Where {
  const a = alias ? `${alias}.` : '';
  const parts: string[] = [];
  const params: (string | number)[] = [];
  if (f.types?.length) {
    parts.push(`${a}event_type IN (${f.types.map(() => '?').join(', ')})`);
    params.push(...f.types);
  }
  if (f.consentId) {
    parts.push(`${a}consent_id = ?`);
    params.push(f.consentId);
  }
  if (f.from) {
    parts.push(`${a}at >= ?`);
    params.push(Date.parse(f.from));
  }
  if (f.to) {
    parts.push(`${a}at < ?`);
    params.push(Date.parse(f.to));
  }
  return { sql: parts.length ? `WHERE ${parts.join(' AND ')}` : '', params };
}

type ListRow = Omit<EventListRow, 'timestamp'> & { at: number };
const LIST_COLUMNS = `e.event_id AS eventId, e.consent_id AS consentId, e.event_type AS eventType, e.at, e.event_detail AS eventDetail,
  c.consumer_email AS consumerEmail, c.data_holder_name AS dataHolderName`;
const toListRow = ({ at, ...r }: ListRow): EventListRow => ({ ...r, timestamp: new Date(at).toISOString() });

export class EventQuery {
  /** Every event's time, type and consent in memory (event-index.ts), when it matches the cache. */
  private readonly index: Rebuilder<EventIndex>;
  private readonly useIndex: boolean;
  private readonly byRowids;

  constructor(
    private readonly db: Db,
    opts: ReadIndexOptions = {},
  ) {
    this.useIndex = opts.useIndex ?? true;
    this.index = new Rebuilder(
      // The index holds each event's consent's data holder and e-mail too.
      new TablesVersion(db, ['events', 'consents']),
      (usable, { version, previous }) => {
        const [events, consents] = TablesVersion.parse(version);
        const was = previous && TablesVersion.parse(previous.version)[1];
        const holdersChanged = was?.mark !== consents?.mark || was?.max !== consents?.max;
        return EventIndex.build(
          db,
          WEBHOOK_FAILURES,
          maskMessage,
          usable,
          events!.max,
          previous && { index: previous.value, holdersChanged },
        );
      },
      opts.onIndexError,
      opts.lane,
      // Events are only ever added by a sync: the index follows it (read-index.ts).
      addedTo(0),
    );
    // The index holds the rest of a list row (type, time, the consent's e-mail and data holder):
    // one page read per row when the disk cache is cold, not three (the join went through the
    // consents' id index and then their table).
    this.byRowids = db.prepare<[string], { r: number; eventId: string; eventDetail: string | null }>(
      'SELECT rowid AS r, event_id AS eventId, event_detail AS eventDetail FROM events WHERE rowid IN (SELECT value FROM json_each(?))',
    );
  }

  /** The in-memory index, for filters it serves (one consent's events are a small index range in SQL). */
  private indexFor(filter: EventListFilter): { index: EventIndex; f: EventIndexFilter } | undefined {
    if (!this.useIndex || filter.consentId) return undefined;
    const index = this.index.current();
    if (!index) return undefined;
    return {
      index,
      f: {
        types: filter.types,
        fromMs: filter.from ? Date.parse(filter.from) : undefined,
        toMs: filter.to ? Date.parse(filter.to) : undefined,
      },
    };
  }

  /** Resolves once the in-memory index matches the cache (benchmarks and tests wait for it). */
  ready(): Promise<void> {
    return this.index.ready();
  }

  /** Keeps the in-memory index current from now on, before any read asks (read-index.ts `keepCurrent`). */
  keepCurrent(): void {
    if (this.useIndex) this.index.keepCurrent();
  }

  /**
   * Before a read through the port (the console's) that the index serves: waits for the index
   * being built, or one that can start now, rather than scanning in SQL meanwhile (read-index.ts,
   * `Rebuilder.built`). Not for one consent's events: SQL reads them along an index at once.
   */
  async settled(filter: EventListFilter = {}): Promise<void> {
    if (this.useIndex && !filter.consentId) await this.index.built();
  }

  /** Whether reads without a consent are answered by the in-memory index (else by SQL). */
  indexed(): boolean {
    return this.useIndex && this.index.current() !== undefined;
  }

  close(): void {
    this.index.close();
  }

  list(input: { filter: EventListFilter; offset: number; limit: number }): EventListRow[] {
    const indexed = this.indexFor(input.filter);
    if (indexed) {
      const positions = indexed.index.window(indexed.f, input.offset, input.limit);
      const rowids = positions.map((p) => indexed.index.rowidAt(p));
      const byRowid = new Map(this.byRowids.all(JSON.stringify(rowids)).map((r) => [r.r, r]));
      if (byRowid.size === rowids.length)
        return positions.map((p, i) => {
          const { eventId, eventDetail } = byRowid.get(rowids[i]!)!;
          const { consentId, eventType, at, consumerEmail, dataHolderName } = indexed.index.shownAt(p);
          return toListRow({ eventId, consentId, eventType, at, eventDetail, consumerEmail, dataHolderName });
        });
    }
    const w = whereOf(input.filter, 'e');
    // Newest first, ties in rowid order: the order of the index on `at` (which ends with the rowid).
    return this.db
      .prepare<(string | number)[], ListRow>(
        `SELECT ${LIST_COLUMNS} FROM events e LEFT JOIN consents c ON c.consent_id = e.consent_id
         ${w.sql} ORDER BY e.at DESC, e.rowid DESC LIMIT ? OFFSET ?`,
      )
      .all(...w.params, input.limit, input.offset)
      .map(toListRow);
  }

  /**
   * How many events match, and how many of each type match the rest of the filter (the type chips),
   * from the in-memory index; undefined while it is not current (events/reads.ts answers in SQL).
   */
  count(filter: EventListFilter): { total: number; types: { type: string; count: number }[] } | undefined {
    const indexed = this.indexFor(filter);
    if (!indexed) return undefined;
    return typeCounts(
      [...indexed.index.typeCounts(indexed.f)].map(([type, count]) => ({ type, count })),
      filter.types,
    );
  }

  /**
   * Events per calendar day and type, newest day first (at most `days` days, the newest ones
   * matching): days of `timeZone` (the console's), or of the machine's when absent or the same.
   */
  days(filter: EventListFilter, days: number, timeZone?: string): { day: string; counts: Record<string, number>; total: number }[] {
    const indexed = this.indexFor(filter);
    if (indexed) return indexed.index.days(indexed.f, days, timeZone);
    const w = whereOf(filter);
    if (timeZone && timeZone !== machineTimeZone()) {
      // SQLite's calendar is the machine's ('localtime'): another zone's days are cut here, newest
      // first, reading no further back than the days asked for.
      const rows: { day: string; type: string; n: number }[] = [];
      const seen = new Map<string, number>();
      let dayStart = Infinity;
      let day = '';
      let daysSeen = 0;
      for (const r of this.db
        .prepare<(string | number)[], { at: number; type: string }>(`SELECT at, event_type AS type FROM events ${w.sql} ORDER BY at DESC`)
        .iterate(...w.params)) {
        if (r.at < dayStart) {
          if (daysSeen++ >= days) break;
          ({ day, start: dayStart } = dayOfInstant(r.at, timeZone));
        }
        const key = `${day} ${r.type}`;
        const i = seen.get(key);
        if (i === undefined) {
          seen.set(key, rows.length);
          rows.push({ day, type: r.type, n: 1 });
        } else rows[i]!.n++;
      }
      return dayCounts(rows, days);
    }
    const rows = this.db
      .prepare<(string | number)[], { day: string; type: string; n: number }>(
        `SELECT date(at / 1000, 'unixepoch', 'localtime') AS day, event_type AS type, count(*) AS n
         FROM events ${w.sql} GROUP BY day, type ORDER BY day DESC`,
      )
      .all(...w.params);
    return dayCounts(rows, days);
  }

  /** Webhook failures grouped by the target's masked response: count, first and last seen, consents affected. */
  failuresByMessage(filter: EventListFilter): WebhookSummary['byMessage'] {
    const indexed = this.indexFor(filter);
    if (indexed)
      return indexed.index
        .failureGroups(indexed.f)
        .sort((a, b) => b.count - a.count || b.last - a.last)
        .map((g) => ({
          key: g.key,
          sample: g.sample,
          count: g.count,
          consents: g.consents,
          firstSeen: new Date(g.first).toISOString(),
          lastSeen: new Date(g.last).toISOString(),
          types: g.types,
        }));
    const w = whereOf({ ...filter, types: WEBHOOK_FAILURES });
    const groups = new Map<
      string,
      { key: string; sample: string | null; count: number; consents: Set<string>; first: number; last: number; types: Set<string> }
    >();
    const stmt = this.db.prepare<(string | number)[], { consent_id: string; event_type: string; at: number; event_detail: string | null }>(
      // Oldest first (ties by rowid): each group's sample is its latest message (of two at the same
      // time, the one stored last), the same from SQL and the index.
      `SELECT consent_id, event_type, at, event_detail FROM events ${w.sql} ORDER BY at, rowid`,
    );
    for (const r of stmt.iterate(...w.params)) {
      const key = maskMessage(r.event_detail);
      const g = groups.get(key) ?? {
        key,
        sample: r.event_detail,
        count: 0,
        consents: new Set(),
        first: r.at,
        last: r.at,
        types: new Set(),
      };
      g.count++;
      g.consents.add(r.consent_id);
      g.types.add(r.event_type);
      if (r.at < g.first) g.first = r.at;
      if (r.at >= g.last) {
        g.last = r.at;
        g.sample = r.event_detail;
      }
      groups.set(key, g);
    }
    return [...groups.values()]
      .sort((a, b) => b.count - a.count || b.last - a.last)
      .map((g) => ({
        key: g.key,
        sample: g.sample,
        count: g.count,
        consents: g.consents.size,
        firstSeen: new Date(g.first).toISOString(),
        lastSeen: new Date(g.last).toISOString(),
        types: [...g.types].sort(),
      }));
  }

  /**
   * Consents with webhook failures, those that reached the retry maximum first, then by count, from
   * the in-memory index; undefined while it is not current (events/reads.ts answers in SQL).
   */
  failuresByConsent(filter: EventListFilter, limit: number): WebhookSummary['byConsent'] | undefined {
    const indexed = this.indexFor(filter);
    if (!indexed) return undefined;
    return indexed.index
      .failuresByConsent(indexed.f, 'WEBHOOK_MAX_RETRIES_REACHED', limit)
      .map(({ last, ...t }) => ({ ...t, lastAt: new Date(last).toISOString() }));
  }

  /**
   * Data collections (DATA_COLLECTION_COMPLETED) in [from, to) per data holder, most first (the
   * compliance report), from the in-memory index; undefined while it is not current (events/reads.ts).
   */
  collectionsByHolder(from: string, to: string): { dataHolderName: string; count: number }[] | undefined {
    const indexed = this.indexFor({ from, to });
    if (!indexed) return undefined;
    const by = new Map<string, number>();
    for (const [name, n] of indexed.index.perHolder('DATA_COLLECTION_COMPLETED', indexed.f)) {
      const label = name ?? UNKNOWN_HOLDER;
      by.set(label, (by.get(label) ?? 0) + n);
    }
    return [...by]
      .map(([dataHolderName, count]) => ({ dataHolderName, count }))
      .sort((a, b) => b.count - a.count || (a.dataHolderName < b.dataHolderName ? -1 : a.dataHolderName > b.dataHolderName ? 1 : 0));
  }

  /**
   * The consents with a webhook failure in a period, from the in-memory index (milliseconds at a
   * million events); undefined while it is not current (the consent list asks SQL then).
   */
  failedConsentIds(period: { from?: string | undefined; to?: string | undefined }): string[] | undefined {
    const indexed = this.indexFor({
      types: WEBHOOK_FAILURES,
      ...(period.from ? { from: period.from } : {}),
      ...(period.to ? { to: period.to } : {}),
    });
    return indexed?.index.consentIdsWithFailures(indexed.f);
  }

  /** How many consents had at least one webhook failure in the filter, from the in-memory index; undefined while it is not current. */
  consentsWithFailures(filter: EventListFilter): number | undefined {
    const indexed = this.indexFor(filter);
    return indexed?.index.consentsWithFailures(indexed.f);
  }
}
