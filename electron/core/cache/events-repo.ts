import type { ConsentEvent, UseCase } from '../../../shared/schemas/consent.js';
import type { Statement } from 'better-sqlite3-multiple-ciphers';
import { inTransaction, type Db } from './database.js';
import { coveredOf, eventColumns, type EventPayload } from './event-columns.js';
import { PayloadCodec } from './payload-codec.js';

/** Cached consent events (idempotent by eventId), newest first for timelines. */
export interface EventRow {
  eventId: string;
  consentId: string;
  eventType: string;
  timestamp: string;
  eventDetail: string | null;
}

const ROW = `event_id AS eventId, consent_id AS consentId, event_type AS eventType, at, event_detail AS eventDetail`;
type StoredRow = Omit<EventRow, 'timestamp'> & { at: number };
const toRow = ({ at, ...r }: StoredRow): EventRow => ({ ...r, timestamp: new Date(at).toISOString() });

export class EventsRepo {
  private readonly insertStmt;
  private readonly updateStmt;
  private readonly currentStmt: Statement<
    [string],
    { consent_id: string; event_type: string; at: number; event_detail: string | null; extra: string }
  >;
  private readonly codec: PayloadCodec;

  constructor(private readonly db: Db) {
    this.codec = new PayloadCodec(db);
    this.insertStmt = db.prepare(
      `INSERT INTO events (event_id, consent_id, event_type, at, event_detail, extra) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (event_id) DO NOTHING`,
    );
    this.updateStmt = db.prepare(
      'UPDATE events SET consent_id = ?, event_type = ?, at = ?, event_detail = ?, extra = ? WHERE event_id = ?',
    );
    this.currentStmt = db.prepare('SELECT consent_id, event_type, at, event_detail, extra FROM events WHERE event_id = ?');
  }

  /**
   * Stores a page (in one transaction, or the caller's). An event already cached takes the new
   * content if it differs. Events without an id get one from their content, so a re-sync cannot
   * duplicate them. `touched` collects the consents of new or changed events: what the
   * incremental sync reads again.
   */
  upsertPage(events: readonly ConsentEvent[], idFor: (e: ConsentEvent) => string, touched?: Set<string>): { new: number; changed: number } {
    let added = 0;
    let changed = 0;
    inTransaction(this.db, () => {
      for (const e of events) {
        const c = eventColumns(e.eventId ?? idFor(e), e as EventPayload);
        const extra = this.codec.encode(c.payload, c.covered, true);
        if (this.insertStmt.run(c.eventId, c.consentId, c.eventType, c.at, c.eventDetail, extra).changes) added++;
        else {
          const old = this.currentStmt.get(c.eventId)!;
          if (
            old.consent_id === c.consentId &&
            old.event_type === c.eventType &&
            old.at === c.at &&
            old.event_detail === c.eventDetail &&
            old.extra === extra
          )
            continue;
          this.updateStmt.run(c.consentId, c.eventType, c.at, c.eventDetail, extra, c.eventId);
          changed++;
        }
        touched?.add(c.consentId);
      }
    });
    return { new: added, changed };
  }

  count(): number {
    return this.db.prepare<[], { n: number }>('SELECT count(*) AS n FROM events').get()!.n;
  }

  /** One event as the API sent it (every field, unknown ones included), or undefined. */
  payload(eventId: string): ConsentEvent | undefined {
    const row = this.db
      .prepare<
        [string],
        { event_id: string; consent_id: string; event_type: string; at: number; event_detail: string | null; extra: string }
      >('SELECT event_id, consent_id, event_type, at, event_detail, extra FROM events WHERE event_id = ?')
      .get(eventId);
    return row ? (this.codec.decode(row.extra, coveredOf(row)) as ConsentEvent) : undefined;
  }

  /** Events newest first, optionally of one consent and some types. */
  list(opts: { consentId?: string; types?: readonly string[]; limit: number }): EventRow[] {
    const where: string[] = [];
    const params: (string | number)[] = [];
    if (opts.consentId) {
      where.push('consent_id = ?');
      params.push(opts.consentId);
    }
    if (opts.types?.length) {
      where.push(`event_type IN (${opts.types.map(() => '?').join(', ')})`);
      params.push(...opts.types);
    }
    return this.db
      .prepare<(string | number)[], StoredRow>(
        `SELECT ${ROW} FROM events ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY at DESC, event_id DESC LIMIT ?`,
      )
      .all(...params, opts.limit)
      .map(toRow);
  }

  /** The newest event time cached (ISO 8601, UTC): where an incremental sync starts. */
  newest(): string | null {
    const t = this.db.prepare<[], { t: number | null }>('SELECT max(at) AS t FROM events').get()!.t;
    return t === null ? null : new Date(t).toISOString();
  }
}

/** Use cases and data holders: small reference lists, replaced whole on each sync. */
export class ReferenceRepo {
  constructor(private readonly db: Db) {}

  /** Replaces the use cases; `combined` is the same list as the combined-scopes view shows it, when synced. */
  replaceUseCases(useCases: readonly UseCase[], syncedAt: string, combined?: readonly UseCase[]): void {
    const insert = this.db.prepare('INSERT INTO use_cases (id, name, raw, synced_at, combined_raw) VALUES (?, ?, ?, ?, ?)');
    const combinedById = new Map((combined ?? []).map((u) => [u.id, JSON.stringify(u)]));
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM use_cases').run();
      for (const u of useCases) insert.run(u.id, u.name ?? null, JSON.stringify(u), syncedAt, combinedById.get(u.id) ?? null);
    })();
  }

  /** The use cases as the combined-scopes view shows them (only those synced with it). */
  combinedUseCases(): UseCase[] {
    return this.db
      .prepare<[], { raw: string }>('SELECT combined_raw AS raw FROM use_cases WHERE combined_raw IS NOT NULL ORDER BY name')
      .all()
      .map((r) => JSON.parse(r.raw) as UseCase);
  }

  replaceDataHolders(holders: readonly { dataHolderBrandId: string; brandName?: string | null | undefined }[], syncedAt: string): void {
    const insert = this.db.prepare('INSERT INTO data_holders (data_holder_brand_id, brand_name, raw, synced_at) VALUES (?, ?, ?, ?)');
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM data_holders').run();
      for (const h of holders) insert.run(h.dataHolderBrandId, h.brandName ?? null, JSON.stringify(h), syncedAt);
    })();
  }

  useCases(): UseCase[] {
    return this.db
      .prepare<[], { raw: string }>('SELECT raw FROM use_cases ORDER BY name')
      .all()
      .map((r) => JSON.parse(r.raw) as UseCase);
  }

  useCase(id: string): UseCase | undefined {
    const row = this.db.prepare<[string], { raw: string }>('SELECT raw FROM use_cases WHERE id = ?').get(id);
    return row ? (JSON.parse(row.raw) as UseCase) : undefined;
  }

  dataHolders(): { dataHolderBrandId: string; brandName: string | null; logoUri: string | null }[] {
    return this.db
      .prepare<[], { raw: string }>('SELECT raw FROM data_holders ORDER BY brand_name COLLATE NOCASE')
      .all()
      .map((r) => {
        const h = JSON.parse(r.raw) as { dataHolderBrandId: string; brandName?: string | null; logoUri?: string | null };
        return { dataHolderBrandId: h.dataHolderBrandId, brandName: h.brandName ?? null, logoUri: h.logoUri ?? null };
      });
  }

  dataHolder(id: string): { dataHolderBrandId: string; brandName: string | null; logoUri: string | null } | undefined {
    const row = this.db.prepare<[string], { raw: string }>('SELECT raw FROM data_holders WHERE data_holder_brand_id = ?').get(id);
    if (!row) return undefined;
    const h = JSON.parse(row.raw) as { dataHolderBrandId: string; brandName?: string | null; logoUri?: string | null };
    return { dataHolderBrandId: h.dataHolderBrandId, brandName: h.brandName ?? null, logoUri: h.logoUri ?? null };
  }

  dataHolderCount(): number {
    return this.db.prepare<[], { n: number }>('SELECT count(*) AS n FROM data_holders').get()!.n;
  }
}
