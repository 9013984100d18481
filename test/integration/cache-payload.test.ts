import Database from 'better-sqlite3-multiple-ciphers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConsentQuery } from '../../electron/core/cache/consent-query.js';
import { ConsentsRepo } from '../../electron/core/cache/consents-repo.js';
import { migrate, openCache } from '../../electron/core/cache/database.js';
import { EventsRepo } from '../../electron/core/cache/events-repo.js';
import { sqliteQueryReader } from '../../electron/core/cache/query-runner.js';
import { eventReads } from '../../electron/core/events/reads.js';
import { MIGRATIONS } from '../../electron/core/cache/migrations.js';
import { PayloadCodec } from '../../electron/core/cache/payload-codec.js';
import { isoMillis } from '../../electron/core/events/instant.js';
import { createConsentGenerator } from '../../electron/sandbox/consents.js';
import type { ConsentEvent } from '../../shared/schemas/consent.js';

/**
 * The cache keeps each payload once, encoded (shapes and repeated parts stored once, values held
 * by columns left out). What comes back must be what the API sent: the same JSON text.
 */
const json = fc.jsonValue({ maxDepth: 3 });
const object = fc.dictionary(fc.string({ maxLength: 12 }), json, { maxKeys: 60 });

describe('payload codec', () => {
  it('gives back the same JSON text for any object, with or without columns and shared parts', () => {
    const db = openCache(':memory:');
    const codec = new PayloadCodec(db);
    fc.assert(
      fc.property(object, fc.boolean(), fc.nat(), (value, shareRest, pick) => {
        const keys = Object.keys(value);
        // Some keys are "in columns": the same primitive value there.
        const columns = Object.fromEntries(
          keys.filter((k, i) => (pick >> i) % 2 === 1 && typeof value[k] !== 'object').map((k) => [k, value[k]]),
        );
        const encoded = db.transaction(() => codec.encode(value, columns, shareRest))();
        expect(JSON.stringify(new PayloadCodec(db).decode(encoded, columns))).toBe(JSON.stringify(value));
      }),
      { numRuns: 300 },
    );
  });

  it('keeps keys that name Object.prototype members (an API payload may carry "__proto__")', () => {
    const db = openCache(':memory:');
    const codec = new PayloadCodec(db);
    for (const text of ['{"__proto__":{"polluted":true},"a":1}', '{"constructor":"x","toString":2}', '{"__proto__":"v"}']) {
      const value = JSON.parse(text) as Record<string, unknown>;
      // A column named "__proto__" too: the third payload's value is left out and put back from it.
      const columns = JSON.parse('{"__proto__":"v"}') as Record<string, unknown>;
      const encoded = db.transaction(() => codec.encode(value, columns))();
      const back = new PayloadCodec(db).decode(encoded, columns) as Record<string, unknown>;
      expect(JSON.stringify(back)).toBe(text);
      expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('stores a repeated nested object once', () => {
    const db = openCache(':memory:');
    const codec = new PayloadCodec(db);
    const useCase = { id: 'u1', name: 'Budgeting', scopes: [{ id: 'bank:accounts.basic:read', purpose: 'x'.repeat(80) }] };
    const bodies = db.transaction(() => Array.from({ length: 50 }, (_, i) => codec.encode({ consentId: `c${i}`, useCase })))();
    // One part for the shape, one for the use case.
    expect(db.prepare('SELECT count(*) AS n FROM payload_parts').get()).toEqual({ n: 2 });
    expect(Math.max(...bodies.map((b) => b.length))).toBeLessThan(30);
  });

  it('reads ISO 8601 times in every zone form the schemas accept', () => {
    expect(isoMillis('2026-11-01T09:30:00.000Z')).toBe(Date.parse('2026-11-01T09:30:00.000Z'));
    expect(isoMillis('2022-12-12T03:27:31.684+0000')).toBe(Date.parse('2022-12-12T03:27:31.684Z'));
    expect(isoMillis('2022-12-12T13:27:31.684+10:00')).toBe(Date.parse('2022-12-12T03:27:31.684Z'));
    expect(isoMillis('2022-12-12T01:27-02')).toBe(Date.parse('2022-12-12T03:27:00.000Z'));
    expect(isoMillis('2022-12-12T03:27:31.6849999Z')).toBe(Date.parse('2022-12-12T03:27:31.684Z'));
    expect(isoMillis('yesterday')).toBeNaN();
  });
});

describe('events keep their payload once', () => {
  it('gives back every event as sent (unknown fields, another zone) and lists it in UTC order', async () => {
    const db = openCache(':memory:');
    const events = new EventsRepo(db);
    const sent: ConsentEvent[] = [
      { eventId: 'e1', eventType: 'GRANTED', eventDetail: null, timestamp: '2026-01-01T10:00:00.000+10:00', consentId: 'c1', custom: [1] },
      { eventId: 'e2', eventType: 'FUTURE_TYPE', timestamp: '2026-01-01T00:00:01.000Z', consentId: 'c1', consumerEmail: 'a@b.c' },
      { eventType: 'EMAIL_SENT', eventDetail: 'sent', timestamp: '2026-01-01T00:00:02Z', consentId: 'c1' },
    ];
    expect(events.upsertPage(sent, () => 'content:1')).toEqual({ new: 3, changed: 0 });
    expect(JSON.stringify(events.payload('e1'))).toBe(JSON.stringify(sent[0]));
    expect(JSON.stringify(events.payload('e2'))).toBe(JSON.stringify(sent[1]));
    expect(JSON.stringify(events.payload('content:1'))).toBe(JSON.stringify(sent[2]));
    expect(await eventReads(sqliteQueryReader(db)).forConsent('c1', 500)).toEqual([
      { eventId: 'content:1', consentId: 'c1', eventType: 'EMAIL_SENT', timestamp: '2026-01-01T00:00:02.000Z', eventDetail: 'sent' },
      { eventId: 'e2', consentId: 'c1', eventType: 'FUTURE_TYPE', timestamp: '2026-01-01T00:00:01.000Z', eventDetail: null },
      { eventId: 'e1', consentId: 'c1', eventType: 'GRANTED', timestamp: '2026-01-01T00:00:00.000Z', eventDetail: null },
    ]);
    // The same event again with new content: updated, not duplicated.
    const touched = new Set<string>();
    expect(events.upsertPage([{ ...sent[1]!, eventDetail: 'late' }, sent[0]!], () => 'x', touched)).toEqual({ new: 0, changed: 1 });
    expect(touched).toEqual(new Set(['c1']));
    expect(events.payload('e2')).toMatchObject({ eventDetail: 'late', consumerEmail: 'a@b.c' });
    expect(events.count()).toBe(3);
  });
});

describe('migration 6 (payloads once) on a cache of schema 5', () => {
  it('keeps every consent payload, every version, every event, and search', () => {
    const db = new Database(':memory:');
    for (const m of MIGRATIONS.slice(0, 5)) m(db);
    db.pragma('user_version = 5');
    const gen = createConsentGenerator(3, 30);
    const consents = Array.from({ length: 30 }, (_, i) => gen.at(i));
    const insertConsent = db.prepare(
      `INSERT INTO consents (consent_id, status, consumer_email, data_holder_name, use_case_name, created, version, raw, synced_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'then')`,
    );
    const insertVersion = db.prepare("INSERT INTO consent_versions (consent_id, version, hash, raw, seen_at) VALUES (?, ?, ?, ?, 'then')");
    for (const c of consents) {
      insertConsent.run(c.consentId, c.status, c.consumerEmail, c.dataHolderName, c.useCase!.name, c.created, c.version, JSON.stringify(c));
      insertVersion.run(c.consentId, 1, 'old', JSON.stringify({ ...c, status: 'REQUESTED' }));
      insertVersion.run(c.consentId, c.version, 'now', JSON.stringify(c));
    }
    const event = (i: number): ConsentEvent => ({
      eventId: `e${i}`,
      eventType: 'GRANTED',
      eventDetail: null,
      timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
      consentId: consents[i % 30]!.consentId,
      externalId: `CRM-${i}`,
    });
    const insertEvent = db.prepare(
      "INSERT INTO events (event_id, consent_id, event_type, timestamp, event_detail, raw, synced_at) VALUES (?, ?, ?, ?, ?, ?, 'then')",
    );
    for (let i = 0; i < 90; i++) {
      const e = event(i);
      insertEvent.run(e.eventId, e.consentId, e.eventType, e.timestamp, null, JSON.stringify(e));
    }

    migrate(db);
    const repo = new ConsentsRepo(db);
    const events = new EventsRepo(db);
    for (const c of consents) {
      expect(JSON.stringify(repo.get(c.consentId))).toBe(JSON.stringify(c));
      expect(repo.versions(c.consentId).map((v) => v.consent.status)).toEqual(['REQUESTED', c.status]);
    }
    for (let i = 0; i < 90; i++) expect(JSON.stringify(events.payload(`e${i}`))).toBe(JSON.stringify(event(i)));
    expect(events.newest()).toBe(event(89).timestamp);
    const holder = consents[0]!.dataHolderName!.split(' ')[0]!;
    expect(new ConsentQuery(db).count({ search: holder }).total).toBe(consents.filter((c) => c.dataHolderName!.includes(holder)).length);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(db.prepare("INSERT INTO consents_fts (consents_fts) VALUES ('integrity-check')").run().changes).toBeGreaterThanOrEqual(0);
  });
});
