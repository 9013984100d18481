import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../electron/core/audit/port.js';
import type { StoredRule94 } from '../../../electron/core/reports/rule94/port.js';
import type { ComplaintFields } from '../../../shared/complaints/complaints.js';
import { halfYearOf } from '../../../shared/reports/rule94.js';
import { withStore, type OpenFixture } from '../fixture.js';
import { sampleWorld, SYNCED_AT } from '../world.js';

/** An instant's milliseconds; null when there is none (SQL's NULL, which compares as neither). */
const at = (iso: string | null | undefined): number | null => (iso ? Date.parse(iso) : null);

/** The rule 9.4 reports' port: Rule94Store, one implementation over the typed query layer, on each engine. */
export function rule94StoreSuite(open: OpenFixture) {
  const entry = (action: string): AuditEntry => ({ operator: 'sam', action, target: null, reason: null, result: 'ok' });
  const draft = (period: string, over: Partial<StoredRule94> = {}): StoredRule94 => ({
    period,
    state: 'draft',
    figures: [
      { key: 'granted', label: 'Consents given', value: 3, how: 'GRANTED events', records: { screen: 'events', types: ['GRANTED'] } },
    ],
    answers: {},
    madeAt: '2026-07-01T00:05:00.000Z',
    madeBy: 'CDR Console (reports)',
    countedAt: '2026-07-01T00:05:00.000Z',
    signedBy: null,
    signedAt: null,
    sha256: null,
    version: 1,
    ...over,
  });

  describe('Rule94Store', () => {
    it(
      'makes a half-year’s report once however many try at once, changes a draft at the version read, and archives it when signed',
      withStore(open, async ({ storage }) => {
        const made = await Promise.all([1, 2, 3].map(() => storage.rule94.make(draft('2026-H1'), () => entry('rule94:made'))));
        expect(made.filter(Boolean)).toHaveLength(1);
        expect(await storage.rule94.get('2026-H1')).toEqual(draft('2026-H1'));

        const answered = await storage.rule94.change('2026-H1', 1, { answers: { entityName: 'Acme Pty Ltd' } }, () =>
          entry('rule94:answer'),
        );
        expect(answered).toMatchObject({ outcome: 'changed', report: { version: 2, answers: { entityName: 'Acme Pty Ltd' } } });
        // A change from the version before: refused, nothing written.
        const stale = await storage.rule94.change('2026-H1', 1, { answers: { entityName: 'Other' } }, () => entry('rule94:answer'));
        expect(stale).toMatchObject({ outcome: 'conflict', current: { version: 2 } });

        const sign = { signedBy: 'kim', signedAt: '2026-07-02T00:00:00.000Z', sha256: 'ab'.repeat(32) };
        const signed = await Promise.all([1, 2].map(() => storage.rule94.signOff('2026-H1', 2, sign, () => entry('rule94:signoff'))));
        expect(signed.filter((s) => s.outcome === 'changed')).toHaveLength(1);
        expect(signed.filter((s) => s.outcome === 'signed')).toHaveLength(1);
        expect(await storage.rule94.get('2026-H1')).toMatchObject({ state: 'signed', ...sign, version: 3 });
        // Archived: no change lands, whatever version is named.
        expect(await storage.rule94.change('2026-H1', 3, { answers: {} }, () => entry('rule94:answer'))).toMatchObject({
          outcome: 'signed',
        });
        expect(await storage.rule94.change('2026-H9', 1, { answers: {} }, () => entry('rule94:answer'))).toEqual({ outcome: 'missing' });

        await storage.rule94.make(draft('2025-H2'), () => entry('rule94:made'));
        expect((await storage.rule94.list()).map((r) => [r.period, r.state])).toEqual([
          ['2026-H1', 'signed'],
          ['2025-H2', 'draft'],
        ]);
        expect((await storage.audit.entries()).map((e) => e.action)).toEqual([
          'rule94:made',
          'rule94:answer',
          'rule94:signoff',
          'rule94:made',
        ]);
        expect(await storage.audit.verify()).toMatchObject({ ok: true });
      }),
    );

    it(
      'counts the consumers served in a half-year from the consents, and its complaints from the register, as plain JavaScript does',
      withStore(open, async ({ storage, load, settled }) => {
        const { consents } = sampleWorld();
        await load.consents(consents, SYNCED_AT);
        await settled();
        const created = consents.map((c) => c.created).sort();
        const h = halfYearOf(new Date(created[Math.floor(created.length / 2)]!));
        const [from, to] = [Date.parse(h.from), Date.parse(h.to)];
        const inForce = consents.filter(
          (c) =>
            !!c.consumerId &&
            (at(c.created) ?? Infinity) < to &&
            (at(c.revoked) ?? Infinity) >= from &&
            (at(c.sharingEndDate) ?? Infinity) >= from,
        );
        const expected = new Set(inForce.map((c) => c.consumerId!)).size;
        expect(expected).toBeGreaterThan(0);
        expect(await storage.rule94.consumersServed(h.from, h.to)).toBe(expected);

        const fields = (over: Partial<ComplaintFields>): ComplaintFields => ({
          receivedOn: h.firstDay,
          channel: 'phone',
          category: 'withdrawal',
          description: 'x',
          consentId: 'c-1',
          consumerId: null,
          outcome: null,
          resolvedOn: null,
          referredTo: null,
          ...over,
        });
        const record = (f: ComplaintFields) =>
          storage.complaints.record({ id: randomUUID(), fields: f, by: 'sam', at: SYNCED_AT }, () => entry('complaint:record'));
        await record(fields({}));
        await record(fields({ receivedOn: h.lastDay, category: 'privacy', outcome: 'upheld', resolvedOn: h.lastDay, referredTo: 'AFCA' }));
        await record(fields({ category: 'privacy', outcome: 'not-upheld', resolvedOn: h.firstDay }));
        // Before the half-year, resolved in it; and one after it.
        await record(fields({ receivedOn: '2019-01-02', category: 'other', outcome: 'withdrawn', resolvedOn: h.firstDay }));
        await record(fields({ receivedOn: '2199-01-02', category: 'other' }));
        expect(await storage.rule94.complaints(h.firstDay, h.lastDay)).toEqual({
          received: [
            { category: 'privacy', count: 2 },
            { category: 'withdrawal', count: 1 },
          ],
          resolved: [
            { outcome: 'not-upheld', count: 1 },
            { outcome: 'upheld', count: 1 },
            { outcome: 'withdrawn', count: 1 },
          ],
          referred: [{ body: 'AFCA', count: 1 }],
          openAtEnd: 1,
        });
      }),
    );
  });
}
