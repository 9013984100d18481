import { describe, expect, it } from 'vitest';
import { AuditLog, GENESIS_HASH } from '../../electron/core/cache/audit-log.js';
import { auditText } from '../../electron/core/exports/log-exports.js';
import { openCache, type Db } from '../../electron/core/cache/database.js';
import { ConsentsRepo } from '../../electron/core/cache/consents-repo.js';
import { ConsentQuery, ftsQuery } from '../../electron/core/cache/consent-query.js';
import { EventsRepo, ReferenceRepo } from '../../electron/core/cache/events-repo.js';
import { sqliteQueryReader } from '../../electron/core/cache/query-runner.js';
import { eventReads } from '../../electron/core/events/reads.js';
import { createConsentGenerator } from '../../electron/sandbox/consents.js';
import type { Consent, ConsentEvent } from '../../shared/schemas/consent.js';

const gen = createConsentGenerator(8, 400);
function seeded(): { db: Db; repo: ConsentsRepo; query: ConsentQuery; consents: Consent[] } {
  const db = openCache(':memory:');
  const repo = new ConsentsRepo(db);
  const consents = Array.from({ length: 400 }, (_, i) => gen.at(i));
  repo.upsertPage(consents, '2026-11-01T00:00:00.000Z');
  return { db, repo, query: new ConsentQuery(db), consents };
}
const plan = (db: Db, sql: string, ...params: unknown[]) =>
  db
    .prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .all(...params)
    .map((r) => (r as { detail: string }).detail)
    .join(' | ');

describe('consent search and filters', () => {
  it('finds consents by id prefix, e-mail, mobile, external id, arrangement, data holder and use case words', () => {
    const { query, consents } = seeded();
    const c = consents.find((x) => x.externalId && x.cdrArrangementId)!;
    const find = (search: string) =>
      query.list({ filter: { search }, offset: 0, limit: 500, sort: { field: 'created', direction: 'desc' } }).map((r) => r.consentId);
    expect(find(c.consentId.slice(0, 8))).toContain(c.consentId);
    expect(find(c.consumerEmail!)).toEqual(
      consents
        .filter((x) => x.consumerEmail === c.consumerEmail)
        .map((x) => x.consentId)
        .reverse(),
    );
    expect(find(c.consumerEmail!.slice(0, 6))).toContain(c.consentId);
    expect(find(c.consumerMobileNumber!)).toContain(c.consentId);
    expect(find(c.externalId!)).toContain(c.consentId);
    expect(find(c.cdrArrangementId!)).toEqual([c.consentId]);
    const bank = find('westpac');
    expect(bank.length).toBe(consents.filter((x) => x.dataHolderName === 'Westpac').length);
    expect(find('energy plan').length).toBe(consents.filter((x) => x.useCase?.name === 'Energy plan comparison').length);
    expect(find('nobody-at-all')).toEqual([]);
  });

  it('treats typed text as words, never as search syntax', () => {
    const { query } = seeded();
    for (const text of ['"', 'a OR b', 'NEAR(x y)', '*', 'col:val', "'; DROP TABLE consents; --"]) {
      expect(() =>
        query.list({ filter: { search: text }, offset: 0, limit: 10, sort: { field: 'created', direction: 'desc' } }),
      ).not.toThrow();
    }
    expect(ftsQuery('  jane   doe ')).toBe('"jane"* AND "doe"*');
    expect(ftsQuery('say "hi"')).toBe('"say"* AND """hi"""*');
    expect(ftsQuery('   ')).toBeUndefined();
  });

  it('filters by status (search and status together), with a total for paging', () => {
    const { query, consents } = seeded();
    const filter = { statuses: ['REVOKED'], search: 'bank' };
    const rows = query.list({ filter, offset: 0, limit: 10, sort: { field: 'created', direction: 'desc' } });
    const expected = consents.filter((c) => c.status === 'REVOKED' && /bank/i.test(`${c.dataHolderName}`));
    expect(query.count(filter).total).toBe(expected.length);
    expect(rows.every((row) => row.status === 'REVOKED')).toBe(true);
  });

  it('keeps every distinct version of a consent', () => {
    const { repo, consents } = seeded();
    const c = consents[10]!;
    repo.upsertPage(
      [{ ...c, status: 'REVOKED', version: (c.version ?? 1) + 1, revoked: '2026-11-02T00:00:00.000Z' }],
      '2026-11-02T00:00:00.000Z',
    );
    repo.upsertPage(
      [{ ...c, status: 'REVOKED', version: (c.version ?? 1) + 1, revoked: '2026-11-02T00:00:00.000Z' }],
      '2026-11-03T00:00:00.000Z',
    );
    const versions = repo.versions(c.consentId);
    expect(versions.map((v) => v.consent.status)).toEqual([c.status, 'REVOKED']);
    expect(repo.get(c.consentId)!.status).toBe('REVOKED');
  });

  it('answers the main queries from indexes (query plans)', () => {
    const { db } = seeded();
    expect(plan(db, 'SELECT consent_id FROM consents c ORDER BY created DESC NULLS LAST, consent_id DESC LIMIT 100')).toMatch(
      /USING COVERING INDEX consents_by_created/,
    );
    expect(
      plan(db, 'SELECT consent_id FROM consents c ORDER BY consumer_email COLLATE NOCASE ASC NULLS LAST, consent_id ASC LIMIT 100'),
    ).toMatch(/INDEX consents_by_email/);
    expect(
      plan(
        db,
        'SELECT consent_id FROM consents c WHERE c.status = ? ORDER BY created DESC NULLS LAST, consent_id DESC LIMIT 100',
        'ACTIVE',
      ),
    ).toMatch(/INDEX consents_by_status_created \(status=\?\)$/);
    expect(plan(db, 'SELECT event_id FROM events WHERE consent_id = ? ORDER BY at DESC, event_id DESC LIMIT 500', 'x')).toMatch(
      /^SEARCH events USING INDEX events_by_consent \(consent_id=\?\)/,
    );
    expect(plan(db, 'SELECT event_id FROM events WHERE event_type = ? ORDER BY at DESC, event_id DESC LIMIT 50', 'x')).toMatch(
      /^SEARCH events USING INDEX events_by_type \(event_type=\?\)/,
    );
    expect(plan(db, 'SELECT * FROM consents WHERE cdr_arrangement_id = ?', 'x')).toMatch(/INDEX consents_by_arrangement/);
  });
});

describe('events and reference data', () => {
  const event = (id: string, type: string, t: string, consentId = 'c1'): ConsentEvent => ({
    eventId: id,
    eventType: type,
    timestamp: t,
    consentId,
    eventDetail: type.includes('CLIENT') ? '400 Bad Request' : null,
  });

  it('upserts events idempotently, lists a consent’s timeline newest first, and pages failures', async () => {
    const db = openCache(':memory:');
    const events = new EventsRepo(db);
    const page = [
      event('e1', 'GRANTED', '2026-01-01T00:00:00.000Z'),
      event('e2', 'WEBHOOK_SENDING_FAILED_CLIENT_ERROR', '2026-01-01T00:00:05.000Z'),
      event('e3', 'REVOKED', '2026-02-01T00:00:00.000Z'),
    ];
    expect(events.upsertPage(page, () => 'x')).toEqual({ new: 3, changed: 0 });
    expect(events.upsertPage(page, () => 'x')).toEqual({ new: 0, changed: 0 });
    expect(events.count()).toBe(3);
    const reads = eventReads(sqliteQueryReader(db));
    expect((await reads.forConsent('c1', 500)).map((e) => e.eventId)).toEqual(['e3', 'e2', 'e1']);
    expect(await reads.ofTypes(['WEBHOOK_SENDING_FAILED_CLIENT_ERROR'], 1, 10)).toEqual({
      total: 1,
      rows: [expect.objectContaining({ eventId: 'e2', eventDetail: '400 Bad Request' })],
    });
    expect(events.newest()).toBe('2026-02-01T00:00:00.000Z');
  });

  it('replaces use cases and data holders whole', () => {
    const ref = new ReferenceRepo(openCache(':memory:'));
    ref.replaceUseCases(
      [
        { id: 'a', name: 'A' },
        { id: 'b', name: 'B' },
      ],
      'now',
    );
    ref.replaceUseCases([{ id: 'b', name: 'B2' }], 'later');
    expect(ref.useCases()).toEqual([{ id: 'b', name: 'B2' }]);
    ref.replaceDataHolders([{ dataHolderBrandId: 'h1', brandName: 'Bank' }], 'now');
    expect(ref.dataHolderCount()).toBe(1);
  });
});

describe('audit log', () => {
  const entry = (n: number) => ({
    operator: 'alice (Alice Admin)',
    action: 'revoke',
    target: `consent-${n}`,
    reason: `ticket ${n}`,
    result: 'revoked',
  });

  it('chains each entry to the previous one, and verifies', () => {
    const log = new AuditLog(openCache(':memory:'), () => new Date('2026-11-01T00:00:00.000Z'));
    const first = log.append(entry(1));
    const second = log.append(entry(2));
    expect(first.prevHash).toBe(GENESIS_HASH);
    expect(second.prevHash).toBe(first.hash);
    expect(log.verify()).toEqual({ ok: true, entries: 2 });
  });

  it('refuses updates and deletes through SQL', () => {
    const db = openCache(':memory:');
    const log = new AuditLog(db);
    log.append(entry(1));
    expect(() => db.prepare("UPDATE audit_log SET reason = 'nothing to see'").run()).toThrow(/append-only/);
    expect(() => db.prepare('DELETE FROM audit_log').run()).toThrow(/append-only/);
  });

  it('detects an edit and a deletion made by someone who removed the guards', () => {
    const db = openCache(':memory:');
    const log = new AuditLog(db);
    for (let i = 1; i <= 5; i++) log.append(entry(i));
    db.exec('DROP TRIGGER audit_log_no_update; DROP TRIGGER audit_log_no_delete;');
    db.prepare("UPDATE audit_log SET reason = 'routine' WHERE seq = 3").run();
    expect(log.verify()).toMatchObject({ ok: false, brokenAt: 3, problem: 'entry 3 was changed after it was written' });
    db.prepare("UPDATE audit_log SET reason = 'ticket 3' WHERE seq = 3").run();
    expect(log.verify()).toEqual({ ok: true, entries: 5 });
    db.prepare('DELETE FROM audit_log WHERE seq = 4').run();
    expect(log.verify()).toMatchObject({ ok: false, brokenAt: 4, problem: 'entry 4 is missing' });
  });

  it('exports JSON and CSV, CSV safe to open in a spreadsheet', () => {
    const log = new AuditLog(openCache(':memory:'));
    log.append({ ...entry(1), reason: '=HYPERLINK("http://evil")' });
    log.append({ ...entry(2), reason: 'said "stop", twice' });
    const json = JSON.parse(auditText(log.entries(), 'json'));
    expect(json).toHaveLength(2);
    expect(json[0].reason).toBe('=HYPERLINK("http://evil")');
    const csv = auditText(log.entries(), 'csv').split('\r\n');
    expect(csv[0]).toBe('seq,at,operator,action,target,reason,result,prevHash,hash');
    expect(csv[1]).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(csv[2]).toContain('"said ""stop"", twice"');
  });
});
