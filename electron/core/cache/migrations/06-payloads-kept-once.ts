import type Database from 'better-sqlite3-multiple-ciphers';
import { createHash } from 'node:crypto';
import { eventColumns, type EventPayload } from '../event-columns.js';
import { PayloadCodec } from '../payload-codec.js';

/**
 * 6: the payload the API sent kept once, and small (payload-codec.ts). Consents keep their columns
 * and the hash of their current payload; the payloads themselves (every distinct version) live in
 * consent_versions, encoded. Events keep their columns, the time as milliseconds (small indexes),
 * and the rest of the payload encoded; the raw copies and the per-row sync stamps of events go.
 *
 * Shipped: never edited (test/unit/migrations-frozen.test.ts holds its hash); a change is a new migration.
 */
export default function migrate(db: Database.Database): void {
  db.exec(`
    CREATE TABLE payload_parts (
      id   INTEGER PRIMARY KEY,
      hash BLOB NOT NULL UNIQUE,   -- sha1 of json
      json TEXT NOT NULL
    ) STRICT;
    CREATE TABLE consent_versions_v6 (
      consent_id TEXT NOT NULL,
      version    INTEGER,
      hash       BLOB NOT NULL,    -- sha1 of the payload's JSON
      body       TEXT NOT NULL,    -- the payload, encoded
      seen_at    TEXT NOT NULL,
      UNIQUE (consent_id, hash)
    ) STRICT;
    ALTER TABLE consents ADD COLUMN payload_hash BLOB;
    CREATE TABLE events_v6 (
      event_id     TEXT NOT NULL,
      consent_id   TEXT NOT NULL,
      event_type   TEXT NOT NULL,
      at           INTEGER NOT NULL,  -- the timestamp, milliseconds since the epoch
      event_detail TEXT,
      extra        TEXT NOT NULL      -- the rest of the payload, encoded
    ) STRICT;
  `);
  const codec = new PayloadCodec(db);
  const sha1 = (text: string) => createHash('sha1').update(text).digest();
  const insertVersion = db.prepare(
    'INSERT INTO consent_versions_v6 (consent_id, version, hash, body, seen_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
  );
  // In chunks by rowid: a statement cannot write while another one is still iterating.
  const chunks = function* <R extends { rowid: number }>(sql: string) {
    const stmt = db.prepare<[number], R>(`${sql} WHERE rowid > ? ORDER BY rowid LIMIT 2000`);
    for (let last = 0, rows = stmt.all(last); rows.length; last = rows.at(-1)!.rowid, rows = stmt.all(last)) yield rows;
  };
  for (const rows of chunks<{ rowid: number; consent_id: string; version: number | null; raw: string; seen_at: string }>(
    'SELECT rowid, consent_id, version, raw, seen_at FROM consent_versions',
  )) {
    for (const r of rows) insertVersion.run(r.consent_id, r.version, sha1(r.raw), codec.encode(JSON.parse(r.raw)), r.seen_at);
  }
  const setHash = db.prepare('UPDATE consents SET payload_hash = ? WHERE rowid = ?');
  for (const rows of chunks<{ rowid: number; consent_id: string; version: number | null; raw: string; synced_at: string }>(
    'SELECT rowid, consent_id, version, raw, synced_at FROM consents',
  )) {
    for (const r of rows) {
      const hash = sha1(r.raw);
      insertVersion.run(r.consent_id, r.version, hash, codec.encode(JSON.parse(r.raw)), r.synced_at);
      setHash.run(hash, r.rowid);
    }
  }
  const insertEvent = db.prepare(
    'INSERT INTO events_v6 (event_id, consent_id, event_type, at, event_detail, extra) VALUES (?, ?, ?, ?, ?, ?)',
  );
  for (const rows of chunks<{ rowid: number; event_id: string; raw: string }>('SELECT rowid, event_id, raw FROM events')) {
    for (const r of rows) {
      const c = eventColumns(r.event_id, JSON.parse(r.raw) as EventPayload);
      insertEvent.run(c.eventId, c.consentId, c.eventType, c.at, c.eventDetail, codec.encode(c.payload, c.covered, true));
    }
  }
  db.exec(`
    DROP TABLE consent_versions;
    ALTER TABLE consent_versions_v6 RENAME TO consent_versions;
    ALTER TABLE consents DROP COLUMN raw;
    DROP TABLE events;
    ALTER TABLE events_v6 RENAME TO events;
    CREATE UNIQUE INDEX events_by_id ON events (event_id);
    CREATE INDEX events_by_consent ON events (consent_id, at);
    CREATE INDEX events_by_type ON events (event_type, at);
    CREATE INDEX events_by_time ON events (at);
  `);
}
