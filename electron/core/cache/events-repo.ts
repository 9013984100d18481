import type { ConsentEvent, UseCase } from '../../../shared/schemas/consent.js';
import type { Db } from './database.js';

/** Cached consent events (idempotent by eventId), newest first for timelines. */
export interface EventRow {
  eventId: string;
  consentId: string;
  eventType: string;
  timestamp: string;
  eventDetail: string | null;
}

export class EventsRepo {
  private readonly upsertStmt;
  private readonly existsStmt;

  constructor(private readonly db: Db) {
    this.upsertStmt = db.prepare(`
      INSERT INTO events (event_id, consent_id, event_type, timestamp, event_detail, raw, synced_at)
      VALUES (@eventId, @consentId, @eventType, @timestamp, @eventDetail, @raw, @syncedAt)
      ON CONFLICT (event_id) DO UPDATE SET event_type = excluded.event_type, timestamp = excluded.timestamp,
        event_detail = excluded.event_detail, raw = excluded.raw, synced_at = excluded.synced_at`);
    this.existsStmt = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM events WHERE event_id = ?');
  }

  /** Upserts a page; events without an id get one from their content, so a re-sync cannot duplicate them. */
  upsertPage(events: readonly ConsentEvent[], syncedAt: string, idFor: (e: ConsentEvent) => string): { new: number } {
    let added = 0;
    this.db.transaction(() => {
      for (const e of events) {
        const eventId = e.eventId ?? idFor(e);
        if (this.existsStmt.get(eventId)!.n === 0) added++;
        this.upsertStmt.run({
          eventId,
          consentId: e.consentId,
          eventType: e.eventType,
          timestamp: e.timestamp,
          eventDetail: e.eventDetail ?? null,
          raw: JSON.stringify(e),
          syncedAt,
        });
      }
    })();
    return { new: added };
  }

  count(): number {
    return this.db.prepare<[], { n: number }>('SELECT count(*) AS n FROM events').get()!.n;
  }

  forConsent(consentId: string, limit = 500): EventRow[] {
    return this.db
      .prepare<[string, number], EventRow>(
        `SELECT event_id AS eventId, consent_id AS consentId, event_type AS eventType, timestamp, event_detail AS eventDetail
         FROM events WHERE consent_id = ? ORDER BY timestamp DESC, event_id DESC LIMIT ?`,
      )
      .all(consentId, limit);
  }

  /** Events of some types (webhook failures, say), newest first, paged. */
  ofTypes(types: readonly string[], page: number, pageSize: number): { rows: EventRow[]; total: number } {
    const marks = types.map(() => '?').join(', ');
    const rows = this.db
      .prepare<(string | number)[], EventRow>(
        `SELECT event_id AS eventId, consent_id AS consentId, event_type AS eventType, timestamp, event_detail AS eventDetail
         FROM events WHERE event_type IN (${marks}) ORDER BY timestamp DESC, event_id DESC LIMIT ? OFFSET ?`,
      )
      .all(...types, pageSize, (page - 1) * pageSize);
    const total = this.db
      .prepare<string[], { n: number }>(`SELECT count(*) AS n FROM events WHERE event_type IN (${marks})`)
      .get(...types)!.n;
    return { rows, total };
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
      .prepare<(string | number)[], EventRow>(
        `SELECT event_id AS eventId, consent_id AS consentId, event_type AS eventType, timestamp, event_detail AS eventDetail
         FROM events ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY timestamp DESC, event_id DESC LIMIT ?`,
      )
      .all(...params, opts.limit);
  }

  /** The newest timestamp cached: where an incremental sync starts. */
  newest(): string | null {
    return this.db.prepare<[], { t: string | null }>('SELECT max(timestamp) AS t FROM events').get()!.t;
  }
}

/** Use cases and data holders: small reference lists, replaced whole on each sync. */
export class ReferenceRepo {
  constructor(private readonly db: Db) {}

  replaceUseCases(useCases: readonly UseCase[], syncedAt: string): void {
    const insert = this.db.prepare('INSERT INTO use_cases (id, name, raw, synced_at) VALUES (?, ?, ?, ?)');
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM use_cases').run();
      for (const u of useCases) insert.run(u.id, u.name ?? null, JSON.stringify(u), syncedAt);
    })();
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
