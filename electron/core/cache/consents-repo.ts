import type { Consent } from '../../../shared/schemas/consent.js';
import { createHash } from 'node:crypto';
import { inTransaction, type Db } from './database.js';
import { PayloadCodec } from './payload-codec.js';

export interface UpsertCounts {
  new: number;
  changed: number;
  unchanged: number;
}

/** Writes of cached consents, and reads of one consent (lists, filters and search: consent-query.ts). */
export class ConsentsRepo {
  private readonly upsertStmt;
  private readonly hashStmt;
  private readonly countStmt;
  private readonly versionStmt;
  private readonly payloadStmt;
  private readonly codec: PayloadCodec;

  constructor(private readonly db: Db) {
    this.codec = new PayloadCodec(db);
    this.upsertStmt = db.prepare(`
      INSERT INTO consents (consent_id, status, consumer_email, data_holder_name, data_holder_brand_id,
        use_case_id, use_case_name, created, sharing_end_date, revoked, version, payload_hash, synced_at,
        cdr_arrangement_id, consumer_id, consumer_mobile, external_id, post_usage_action,
        access_frequency, direct_marketing, first_data_collection)
      VALUES (@consentId, @status, @consumerEmail, @dataHolderName, @dataHolderBrandId,
        @useCaseId, @useCaseName, @created, @sharingEndDate, @revoked, @version, @payloadHash, @syncedAt,
        @cdrArrangementId, @consumerId, @consumerMobile, @externalId, @postUsageAction,
        @accessFrequency, @directMarketing, @firstDataCollection)
      ON CONFLICT (consent_id) DO UPDATE SET
        status = excluded.status, consumer_email = excluded.consumer_email,
        data_holder_name = excluded.data_holder_name, data_holder_brand_id = excluded.data_holder_brand_id,
        use_case_id = excluded.use_case_id, use_case_name = excluded.use_case_name,
        created = excluded.created, sharing_end_date = excluded.sharing_end_date,
        revoked = excluded.revoked, version = excluded.version, payload_hash = excluded.payload_hash, synced_at = excluded.synced_at,
        cdr_arrangement_id = excluded.cdr_arrangement_id, consumer_id = excluded.consumer_id,
        consumer_mobile = excluded.consumer_mobile, external_id = excluded.external_id,
        post_usage_action = excluded.post_usage_action, access_frequency = excluded.access_frequency,
        direct_marketing = excluded.direct_marketing, first_data_collection = excluded.first_data_collection`);
    this.versionStmt = db.prepare(
      'INSERT INTO consent_versions (consent_id, version, hash, body, seen_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (consent_id, hash) DO NOTHING',
    );
    this.hashStmt = db.prepare<[string], { payload_hash: Buffer | null }>('SELECT payload_hash FROM consents WHERE consent_id = ?');
    this.payloadStmt = db.prepare<[string], { body: string }>(
      `SELECT v.body FROM consents c JOIN consent_versions v ON v.consent_id = c.consent_id AND v.hash = c.payload_hash
       WHERE c.consent_id = ?`,
    );
    this.countStmt = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM consents');
  }

  /**
   * Idempotent: one transaction per call (a page, or the caller's), unchanged rows are not
   * rewritten. The payload goes to consent_versions once per distinct content, encoded.
   */
  upsertPage(consents: readonly Consent[], syncedAt: string): UpsertCounts {
    const counts: UpsertCounts = { new: 0, changed: 0, unchanged: 0 };
    inTransaction(this.db, () => {
      for (const c of consents) {
        const payloadHash = createHash('sha1').update(JSON.stringify(c)).digest();
        const existing = this.hashStmt.get(c.consentId);
        if (existing?.payload_hash?.equals(payloadHash)) {
          counts.unchanged++;
          continue;
        }
        if (existing) counts.changed++;
        else counts.new++;
        this.upsertStmt.run({
          consentId: c.consentId,
          status: c.status ?? null,
          consumerEmail: c.consumerEmail ?? null,
          dataHolderName: c.dataHolderName ?? null,
          dataHolderBrandId: c.dataHolderBrandId ?? null,
          useCaseId: c.useCase?.id ?? null,
          useCaseName: c.useCase?.name ?? null,
          created: c.created ?? null,
          sharingEndDate: c.sharingEndDate ?? null,
          revoked: c.revoked ?? null,
          version: c.version ?? null,
          payloadHash,
          syncedAt,
          cdrArrangementId: c.cdrArrangementId ?? null,
          consumerId: c.consumerId ?? null,
          consumerMobile: c.consumerMobileNumber ?? null,
          externalId: c.externalId ?? null,
          postUsageAction: c.postUsageAction ?? null,
          accessFrequency: c.useCase?.accessFrequency ?? null,
          directMarketing: typeof c.directMarketingAllowed === 'boolean' ? Number(c.directMarketingAllowed) : null,
          firstDataCollection: c.firstDataCollection ?? null,
        });
        this.versionStmt.run(c.consentId, c.version ?? null, payloadHash, this.codec.encode(c), syncedAt);
      }
    });
    return counts;
  }

  count(): number {
    return this.countStmt.get()!.n;
  }

  /** The creation time of the newest consent cached: where the search for new ones starts. */
  newestCreated(): string | null {
    return this.db.prepare<[], { t: string | null }>('SELECT max(created) AS t FROM consents').get()!.t;
  }

  /** When the cache last stored this consent, or null. */
  syncedAt(consentId: string): string | null {
    return this.db.prepare<[string], { t: string }>('SELECT synced_at AS t FROM consents WHERE consent_id = ?').get(consentId)?.t ?? null;
  }

  /** The payload of one consent as last synced, or undefined. */
  get(consentId: string): Consent | undefined {
    const row = this.payloadStmt.get(consentId);
    return row ? (this.codec.decode(row.body) as Consent) : undefined;
  }

  /** Every distinct payload seen for a consent, oldest first. */
  versions(consentId: string): { version: number | null; seenAt: string; consent: Consent }[] {
    return this.db
      .prepare<[string], { version: number | null; seen_at: string; body: string }>(
        'SELECT version, seen_at, body FROM consent_versions WHERE consent_id = ? ORDER BY seen_at, version',
      )
      .all(consentId)
      .map((r) => ({ version: r.version, seenAt: r.seen_at, consent: this.codec.decode(r.body) as Consent }));
  }
}

export class SyncStateRepo {
  private readonly getStmt;
  private readonly setStmt;
  constructor(private readonly db: Db) {
    this.getStmt = db.prepare<[string], { value: string }>('SELECT value FROM sync_state WHERE key = ?');
    this.setStmt = db.prepare('INSERT INTO sync_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
  }
  get(key: string): string | null {
    return this.getStmt.get(key)?.value ?? null;
  }
  set(key: string, value: string): void {
    this.setStmt.run(key, value);
  }
  delete(key: string): void {
    this.db.prepare('DELETE FROM sync_state WHERE key = ?').run(key);
  }
}
