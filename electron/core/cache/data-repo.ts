import { createHash } from 'node:crypto';
import { normalizeRecord } from '../../../shared/banking/index.js';
import type { JsonObject } from '../../../shared/banking/values.js';
import { consentOf, DATA_KINDS, type DataKind } from '../api/data-client.js';
import type { Db } from './db.js';

/* Records are loose JSON. */
type Json = Record<string, unknown>;

/**
 * Data API records in the cache: the payload as sent and, for banking accounts and products, the
 * Data API 2.0.0 form with the normaliser's notes, side by side (a normaliser fix can be re-applied
 * without a download).
 */
export interface DataRow {
  kind: string;
  recordId: string;
  consentId: string | null;
  shape: string | null;
  record: Json;
  notes: unknown[];
  deidentified: boolean;
}

const NORMALISED_KINDS: ReadonlySet<DataKind> = new Set(['accounts', 'products']);

export class DataRepo {
  private readonly upsertStmt;
  private readonly versionStmt;
  constructor(private readonly db: Db) {
    // Every distinct version of a product, the first time a sync sees it (what changed between syncs).
    this.versionStmt = db.prepare(
      'INSERT INTO product_versions (record_id, hash, shape, raw, normalized, notes, seen_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
    );
    this.upsertStmt = db.prepare(`
      INSERT INTO data_records (kind, record_id, consent_id, shape, raw, normalized, notes, fetched_at, deidentified)
      VALUES (@kind, @recordId, @consentId, @shape, @raw, @normalized, @notes, @fetchedAt, 0)
      ON CONFLICT (kind, record_id) DO UPDATE SET consent_id = excluded.consent_id, shape = excluded.shape, raw = excluded.raw,
        normalized = excluded.normalized, notes = excluded.notes, fetched_at = excluded.fetched_at, deidentified = 0`);
  }

  /** Stores a page (in the caller's transaction); returns how many records it held. */
  upsertPage(kind: DataKind, records: readonly Json[], fetchedAt: string): number {
    for (const record of records) {
      let shape: string | null = null;
      let normalized: string | null = null;
      let notes: string | null = null;
      if (NORMALISED_KINDS.has(kind)) {
        const result = normalizeRecord(record as JsonObject);
        shape = result.shape;
        normalized = JSON.stringify(result.data);
        notes = JSON.stringify(result.notes);
      }
      const recordId = DATA_KINDS[kind].key(record);
      const raw = JSON.stringify(record);
      this.upsertStmt.run({ kind, recordId, consentId: consentOf(record), shape, raw, normalized, notes, fetchedAt });
      if (kind === 'products')
        this.versionStmt.run(recordId, createHash('sha256').update(raw).digest('hex'), shape, raw, normalized, notes, fetchedAt);
    }
    return records.length;
  }

  list(opts: { kind: DataKind; consentId?: string; page: number; pageSize: number }): { rows: DataRow[]; total: number } {
    const where = ['kind = ?', ...(opts.consentId ? ['consent_id = ?'] : [])].join(' AND ');
    const params = [opts.kind, ...(opts.consentId ? [opts.consentId] : [])];
    const rows = this.db
      .prepare<
        (string | number)[],
        {
          kind: string;
          record_id: string;
          consent_id: string | null;
          shape: string | null;
          raw: string;
          normalized: string | null;
          notes: string | null;
          deidentified: number;
        }
      >(
        `SELECT kind, record_id, consent_id, shape, raw, normalized, notes, deidentified FROM data_records WHERE ${where} ORDER BY record_id LIMIT ? OFFSET ?`,
      )
      .all(...params, opts.pageSize, (opts.page - 1) * opts.pageSize)
      .map((r) => ({
        kind: r.kind,
        recordId: r.record_id,
        consentId: r.consent_id,
        shape: r.shape,
        record: JSON.parse(r.normalized ?? r.raw) as Json,
        notes: r.notes ? (JSON.parse(r.notes) as unknown[]) : [],
        deidentified: r.deidentified === 1,
      }));
    const total = this.db
      .prepare<(string | number)[], { n: number }>(`SELECT count(*) AS n FROM data_records WHERE ${where}`)
      .get(...params)!.n;
    return { rows, total };
  }

  /** Per kind: how many records of a consent are cached, and when they were last fetched. */
}
