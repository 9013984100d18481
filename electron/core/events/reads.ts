import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { ChannelOutput, WebhookSummary } from '../../../shared/ipc/contract.js';
import type { QueryReader } from '../query/query.js';
import { WEBHOOK_FAILURES, type EventRow } from './port.js';
import { typeCounts, UNKNOWN_HOLDER } from './type-counts.js';

/**
 * The events' reads that mean the same on both engines, written once over the typed query layer
 * (issue 37): the Events screen's counts per type, the webhook failures per consent and how many
 * consents had one, and the compliance report's events per type and data collections per data
 * holder, the webhook failures' list and a consent's timeline. The team store
 * runs them on PostgreSQL; the solo cache answers from its in-memory index when it is current
 * (cache/event-index.ts, held to these answers by test/integration/event-index.test.ts) and runs
 * them on SQLite otherwise.
 *
 * What a filter means is said here once: the types chosen (each once), one consent, and the period
 * [from, to) — an instant that cannot be read matches nothing. The engines differ only where they
 * must: SQLite keeps an event's time as milliseconds, PostgreSQL as a timestamptz (read back as ISO
 * text, postgres/db.ts); PostgreSQL orders text bytewise only under COLLATE "C" (SQLite's BINARY);
 * its counts come back as bigint text.
 *
 * The lists, the days and the failures grouped by message stay per engine: PostgreSQL's are shaped
 * for its indexes at a million events (keysets, one ordered scan per type, the failures' partial
 * index), SQLite's are the fallback of the in-memory index.
 */
/** Which events (the contract's EventFilter, its types read-only). */
export interface EventReadFilter {
  types?: readonly string[] | undefined;
  consentId?: string | undefined;
  /** ISO 8601 instants: from inclusive, to exclusive. */
  from?: string | undefined;
  to?: string | undefined;
}

export interface EventReads {
  count(filter: EventReadFilter): Promise<{ total: number; types: { type: string; count: number }[] }>;
  consentsWithFailures(filter: EventReadFilter): Promise<number>;
  failuresByConsent(filter: EventReadFilter, limit: number): Promise<WebhookSummary['byConsent']>;
  collectionsByHolder(from: string, to: string): Promise<{ dataHolderName: string; count: number }[]>;
  /** How many events of each of these types fall in [from, to) (the compliance report), each type asked for listed. */
  eventsByType(from: string, to: string, types: readonly string[]): Promise<Map<string, number>>;
  /** The events of some types (the webhook failures' list), a page at a time, newest first, and how many there are. */
  ofTypes(types: readonly string[], page: number, pageSize: number): Promise<ChannelOutput<'events:failures'>>;
  /** One consent's events, newest first, up to `limit` (all when negative): the consent's timeline. */
  forConsent(consentId: string, limit: number): Promise<EventRow[]>;
}

/** The event type of a delivery that gave up; a consent with one is listed first. */
const MAX_RETRIES = 'WEBHOOK_MAX_RETRIES_REACHED';

export function eventReads(db: QueryReader): EventReads {
  const pg = db.engine === 'postgres';
  /** An instant of a filter as the engine stores it; null, which matches nothing, when unreadable. */
  const instant = (text: string): RawBuilder<unknown> => {
    const ms = Date.parse(text);
    if (!Number.isFinite(ms)) return sql`NULL`;
    return pg ? sql`${new Date(ms).toISOString()}::timestamptz` : sql`${ms}`;
  };
  /** A stored time as the contract's ISO text. */
  const iso = (at: number | string): string => (typeof at === 'number' ? new Date(at).toISOString() : at);
  /** A text column ordered bytewise. */
  const bytewise = (ref: RawBuilder<unknown>): RawBuilder<unknown> => (pg ? sql`${ref} COLLATE "C"` : ref);

  /** The filter's conditions on the events (aliased `e`), ANDed. */
  const matching = (filter: EventReadFilter): RawBuilder<SqlBool> => {
    const parts: RawBuilder<SqlBool>[] = [];
    const types = [...new Set(filter.types ?? [])];
    if (types.length) parts.push(sql<SqlBool>`e.event_type IN (${sql.join(types)})`);
    if (filter.consentId) parts.push(sql<SqlBool>`e.consent_id = ${filter.consentId}`);
    if (filter.from) parts.push(sql<SqlBool>`e.at >= ${instant(filter.from)}`);
    if (filter.to) parts.push(sql<SqlBool>`e.at < ${instant(filter.to)}`);
    return parts.length ? sql<SqlBool>`${sql.join(parts, sql` AND `)}` : sql<SqlBool>`1 = 1`;
  };
  /** Newest first; of two at the same instant, the greater id first. */
  const newestFirst = (a: string) => sql`${sql.ref(`${a}.at`)} DESC, ${bytewise(sql.ref(`${a}.event_id`))} DESC`;
  const rowOf = (r: {
    event_id: string;
    consent_id: string;
    event_type: string;
    at: number | string;
    event_detail: string | null;
  }): EventRow => ({
    eventId: r.event_id,
    consentId: r.consent_id,
    eventType: r.event_type,
    timestamp: iso(r.at),
    eventDetail: r.event_detail,
  });
  const ROW = ['event_id', 'consent_id', 'event_type', 'at', 'event_detail'] as const;

  const failures = (filter: EventReadFilter): EventReadFilter => ({ ...filter, types: WEBHOOK_FAILURES });

  return {
    async count(filter) {
      const q = await db.queries();
      const rows = await db.all(
        q
          .selectFrom('events as e')
          .where(matching({ ...filter, types: undefined }))
          .select((eb) => ['e.event_type as type', eb.fn.countAll<number | string>().as('count')])
          .groupBy('e.event_type'),
      );
      return typeCounts(
        rows.map((r) => ({ type: r.type, count: Number(r.count) })),
        filter.types,
      );
    },

    async consentsWithFailures(filter) {
      const q = await db.queries();
      const [row] = await db.all(
        q
          .selectFrom('events as e')
          .where(matching(failures(filter)))
          .select((eb) => eb.fn.count<number | string>('e.consent_id').distinct().as('n')),
      );
      return Number(row?.n ?? 0);
    },

    async failuresByConsent(filter, limit) {
      const q = await db.queries();
      // Worst first: a delivery that gave up, then the most failures, the latest, the consent's id.
      const order = sql`max_retries > 0 DESC, failures DESC, last_at DESC, ${bytewise(sql.ref('consent_id'))}`;
      const grouped = q
        .selectFrom('events as e')
        .where(matching(failures(filter)))
        .select((eb) => [
          'e.consent_id as consent_id',
          eb.fn.countAll<number | string>().as('failures'),
          sql<number | string>`sum(CASE WHEN e.event_type = ${MAX_RETRIES} THEN 1 ELSE 0 END)`.as('max_retries'),
          eb.fn.max('e.at').as('last_at'),
        ])
        .groupBy('e.consent_id');
      // The worst `limit` consents, then their e-mail and data holder (a join per consent listed, not per failure).
      const worst = q
        .selectFrom(grouped.as('g'))
        .selectAll()
        .orderBy(order)
        .$if(limit >= 0, (b) => b.limit(limit));
      const rows = await db.all(
        q
          .selectFrom(worst.as('f'))
          .leftJoin('consents as c', 'c.consent_id', 'f.consent_id')
          .select(['f.consent_id', 'c.consumer_email', 'c.data_holder_name', 'f.failures', 'f.max_retries', 'f.last_at'])
          .orderBy(sql`f.max_retries > 0 DESC, f.failures DESC, f.last_at DESC, ${bytewise(sql.ref('f.consent_id'))}`),
      );
      return rows.map((r) => ({
        consentId: r.consent_id,
        consumerEmail: r.consumer_email,
        dataHolderName: r.data_holder_name,
        failures: Number(r.failures),
        maxRetries: Number(r.max_retries),
        lastAt: iso(r.last_at),
      }));
    },

    async collectionsByHolder(from, to) {
      const q = await db.queries();
      // A literal, not a parameter: PostgreSQL groups by the same expression only when it is written the same.
      const holder = sql<string>`coalesce(c.data_holder_name, ${sql.lit(UNKNOWN_HOLDER)})`;
      const rows = await db.all(
        q
          .selectFrom('events as e')
          .leftJoin('consents as c', 'c.consent_id', 'e.consent_id')
          .where(matching({ types: ['DATA_COLLECTION_COMPLETED'], from, to }))
          .select((eb) => [holder.as('dataHolderName'), eb.fn.countAll<number | string>().as('count')])
          .groupBy(holder)
          .orderBy(sql`count(*) DESC, ${bytewise(holder)}`),
      );
      return rows.map((r) => ({ dataHolderName: r.dataHolderName, count: Number(r.count) }));
    },

    async eventsByType(from, to, types) {
      const chosen = [...new Set(types)];
      if (!chosen.length) return new Map();
      const q = await db.queries();
      // One range of the (type, time) index per type, on both engines.
      const rows = await db.all(
        q
          .selectFrom('events as e')
          .where(matching({ types: chosen, from, to }))
          .select((eb) => ['e.event_type as type', eb.fn.countAll<number | string>().as('n')])
          .groupBy('e.event_type'),
      );
      const counts = new Map(rows.map((r) => [r.type, Number(r.n)]));
      return new Map(types.map((t) => [t, counts.get(t) ?? 0]));
    },

    async ofTypes(types, page, pageSize) {
      const chosen = [...new Set(types)];
      if (!chosen.length) return { rows: [], total: 0 };
      const q = await db.queries();
      const offset = Math.max(0, (page - 1) * pageSize);
      // Each type's newest `offset + pageSize` (an ordered range of the (type, time) index, stopped
      // there), merged and ordered: an IN list ordered as a whole reads and sorts every event of the types.
      const newest = (type: string, i: number) =>
        q
          .selectFrom(
            q
              .selectFrom('events as e')
              .select(ROW.map((c) => `e.${c}` as const))
              .where('e.event_type', '=', type)
              .orderBy(newestFirst('e'))
              .limit(offset + pageSize)
              .as(`t${i}`),
          )
          .selectAll();
      const merged = chosen.slice(1).reduce((u, type, i) => u.unionAll(newest(type, i + 1)), newest(chosen[0]!, 0));
      const [rows, [counted]] = await Promise.all([
        db.all(q.selectFrom(merged.as('u')).selectAll().orderBy(newestFirst('u')).limit(pageSize).offset(offset)),
        db.all(
          q
            .selectFrom('events as e')
            .where('e.event_type', 'in', chosen)
            .select((eb) => eb.fn.countAll<number | string>().as('n')),
        ),
      ]);
      return { rows: rows.map(rowOf), total: Number(counted?.n ?? 0) };
    },

    async forConsent(consentId, limit) {
      const q = await db.queries();
      const rows = await db.all(
        q
          .selectFrom('events as e')
          .select(ROW.map((c) => `e.${c}` as const))
          .where('e.consent_id', '=', consentId)
          .orderBy(newestFirst('e'))
          .$if(limit >= 0, (b) => b.limit(limit)),
      );
      return rows.map(rowOf);
    },
  };
}
