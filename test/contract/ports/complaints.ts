import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ComplaintFields } from '../../../shared/complaints/complaints.js';
import type { AuditEntry } from '../../../electron/core/audit/port.js';
import { withStore, type OpenFixture } from '../fixture.js';

/** The complaints domain's port: ComplaintStore, one implementation over the typed query layer, on each engine. */
export function complaintStoreSuite(open: OpenFixture) {
  const fields = (over: Partial<ComplaintFields> = {}): ComplaintFields => ({
    receivedOn: '2026-10-02',
    channel: 'phone',
    category: 'withdrawal',
    description: 'Withdrew consent in the app; data still shown a week later.',
    consentId: 'c-1',
    consumerId: null,
    outcome: null,
    resolvedOn: null,
    referredTo: null,
    ...over,
  });
  const entry =
    (action: string) =>
    (...complaints: { number: number }[]): AuditEntry => ({
      operator: 'sam',
      action,
      target: `CMP-${complaints.at(-1)!.number}`,
      reason: null,
      result: 'ok',
    });

  describe('ComplaintStore', () => {
    it(
      'numbers complaints in the register, each recorded with its audit entry, and reads them back as written',
      withStore(open, async ({ storage }) => {
        const a = await storage.complaints.record(
          { id: randomUUID(), fields: fields(), by: 'sam', at: '2026-10-02T01:00:00.000Z' },
          entry('complaint:record'),
        );
        const b = await storage.complaints.record(
          {
            id: randomUUID(),
            fields: fields({
              consentId: null,
              consumerId: 'Cust-7',
              category: 'privacy',
              outcome: 'upheld',
              resolvedOn: '2026-10-09',
              referredTo: 'AFCA',
            }),
            by: 'kim',
            at: '2026-10-03T01:00:00.000Z',
          },
          entry('complaint:record'),
        );
        expect([a.number, b.number]).toEqual([1, 2]);
        expect(a).toMatchObject({
          status: 'open',
          version: 1,
          createdBy: 'sam',
          updatedBy: 'sam',
          createdAt: '2026-10-02T01:00:00.000Z',
          ...fields(),
        });
        expect(b).toMatchObject({
          status: 'resolved',
          outcome: 'upheld',
          resolvedOn: '2026-10-09',
          referredTo: 'AFCA',
          consumerId: 'Cust-7',
        });
        expect(await storage.complaints.get(b.id)).toEqual(b);
        expect(await storage.complaints.get(randomUUID())).toBeUndefined();
        const audit = await storage.audit.entries();
        expect(audit.map((e) => [e.action, e.target])).toEqual([
          ['complaint:record', 'CMP-1'],
          ['complaint:record', 'CMP-2'],
        ]);
        expect(await storage.audit.verify()).toMatchObject({ ok: true, entries: 2 });
      }),
    );

    it(
      'lists by consent, consumer (exactly: ids are case-sensitive), status, category and days received, newest first, with the total',
      withStore(open, async ({ storage }) => {
        const days = ['2026-09-30', '2026-10-01', '2026-10-15', '2026-10-31', '2026-11-01'];
        for (const [i, receivedOn] of days.entries())
          await storage.complaints.record(
            {
              id: randomUUID(),
              fields: fields({
                receivedOn,
                consentId: i % 2 ? 'c-odd' : 'c-even',
                consumerId: i === 4 ? 'cust-A' : i === 3 ? 'CUST-A' : null,
                category: i < 2 ? 'privacy' : 'service',
                ...(i === 2 ? { outcome: 'not-upheld' as const, resolvedOn: '2026-10-20' } : {}),
              }),
              by: 'sam',
              at: `2026-11-0${i + 1}T00:00:00.000Z`,
            },
            entry('complaint:record'),
          );
        const days_ = async (filter: Parameters<typeof storage.complaints.list>[0], offset = 0, limit = 100) => {
          const r = await storage.complaints.list(filter, offset, limit);
          return { days: r.rows.map((c) => c.receivedOn), total: r.total };
        };
        expect(await days_({})).toEqual({ days: [...days].reverse(), total: 5 });
        expect(await days_({}, 1, 2)).toEqual({ days: ['2026-10-31', '2026-10-15'], total: 5 });
        expect(await days_({ consentId: 'c-odd' })).toEqual({ days: ['2026-10-31', '2026-10-01'], total: 2 });
        expect(await days_({ consumerId: 'cust-A' })).toEqual({ days: ['2026-11-01'], total: 1 });
        expect(await days_({ status: 'resolved' })).toEqual({ days: ['2026-10-15'], total: 1 });
        expect(await days_({ status: 'open', category: 'service' })).toEqual({ days: ['2026-11-01', '2026-10-31'], total: 2 });
        // October, as a person picks it: both ends are calendar days, included.
        expect(await days_({ receivedFrom: '2026-10-01', receivedTo: '2026-10-31' })).toEqual({
          days: ['2026-10-31', '2026-10-15', '2026-10-01'],
          total: 3,
        });
      }),
    );

    it(
      'changes a complaint read at its version, audited; a stale version changes nothing and says what it is now',
      withStore(open, async ({ storage }) => {
        const c = await storage.complaints.record(
          { id: randomUUID(), fields: fields(), by: 'sam', at: '2026-10-02T01:00:00.000Z' },
          entry('complaint:record'),
        );
        const resolved = fields({ outcome: 'partly-upheld', resolvedOn: '2026-10-10' });
        const r = await storage.complaints.update(c.id, 1, resolved, 'kim', '2026-10-10T02:00:00.000Z', (before, after) => {
          expect(before).toEqual(c);
          return entry('complaint:update')(after);
        });
        expect(r).toMatchObject({
          outcome: 'updated',
          complaint: { version: 2, status: 'resolved', updatedBy: 'kim', createdBy: 'sam', outcome: 'partly-upheld' },
        });
        // Someone else's stale copy (version 1): refused, nothing written, nothing audited.
        const stale = await storage.complaints.update(
          c.id,
          1,
          fields({ description: 'overwrite' }),
          'lee',
          '2026-10-11T00:00:00.000Z',
          entry('complaint:update'),
        );
        expect(stale).toMatchObject({ outcome: 'conflict', current: { version: 2, updatedBy: 'kim', description: c.description } });
        expect(
          await storage.complaints.update(randomUUID(), 1, resolved, 'kim', '2026-10-10T02:00:00.000Z', entry('complaint:update')),
        ).toEqual({
          outcome: 'missing',
        });
        expect((await storage.audit.entries()).map((e) => e.action)).toEqual(['complaint:record', 'complaint:update']);
        expect((await storage.complaints.get(c.id))!.version).toBe(2);
      }),
    );

    it(
      'keeps the register whole when a write fails: the complaint and its audit entry land together or not at all',
      withStore(open, async ({ storage }) => {
        await expect(
          storage.complaints.record({ id: randomUUID(), fields: fields(), by: 'sam', at: '2026-10-02T01:00:00.000Z' }, () => {
            throw new Error('the audit entry could not be made');
          }),
        ).rejects.toThrow('the audit entry could not be made');
        expect(await storage.complaints.list({}, 0, 10)).toEqual({ rows: [], total: 0 });
        expect(await storage.audit.entries()).toEqual([]);
        // The store's own rule: a complaint concerns a consent or a consumer (the CHECK of both engines).
        await expect(
          storage.complaints.record(
            { id: randomUUID(), fields: fields({ consentId: null, consumerId: null }), by: 'sam', at: '2026-10-02T01:00:00.000Z' },
            entry('complaint:record'),
          ),
        ).rejects.toThrow(/check/i);
        expect((await storage.complaints.list({}, 0, 10)).total).toBe(0);
      }),
    );
  });
}
