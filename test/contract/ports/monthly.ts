import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../electron/core/audit/port.js';
import type { MonthlyPack } from '../../../electron/core/reports/monthly/port.js';
import { withStore, type OpenFixture } from '../fixture.js';

/** The monthly compliance pack's port: MonthlyPackStore, one implementation over the typed query layer, on each engine. */
export function monthlyPackStoreSuite(open: OpenFixture) {
  const entry = (action: string): AuditEntry => ({ operator: 'sam', action, target: null, reason: null, result: 'ok' });
  const packOf = (period: string, over: Partial<MonthlyPack> = {}): MonthlyPack => ({
    period,
    timeZone: 'Australia/Sydney',
    from: '2026-09-30T14:00:00.000Z',
    to: '2026-10-31T13:00:00.000Z',
    madeAt: '2026-11-01T00:05:00.000Z',
    madeBy: 'CDR Console (reports)',
    html: '<h1>October</h1>',
    csv: '"Period","1 Oct 2026 – 31 Oct 2026"\r\n',
    sha256: 'a'.repeat(64),
    sent: null,
    ...over,
  });

  describe('MonthlyPackStore', () => {
    it(
      'keeps the schedule (one, changed in place, audited) and makes a month’s pack once however many try at once',
      withStore(open, async ({ storage }) => {
        expect(await storage.monthly.schedule()).toBeUndefined();
        const on = { enabled: true, timeZone: 'Australia/Sydney', changedBy: 'kim', changedAt: '2026-10-20T00:00:00.000Z' };
        expect(await storage.monthly.setSchedule(on, entry('report:schedule'))).toEqual(on);
        const off = { enabled: false, timeZone: 'Australia/Perth', changedBy: 'lee', changedAt: '2026-10-21T00:00:00.000Z' };
        expect(await storage.monthly.setSchedule(off, entry('report:schedule'))).toEqual(off);
        expect(await storage.monthly.schedule()).toEqual(off);

        const made = await Promise.all(
          [1, 2, 3].map((i) => storage.monthly.make(packOf('2026-10', { madeBy: `server ${i}` }), entry('report:monthly-pack'))),
        );
        expect(made.filter(Boolean)).toHaveLength(1);
        const stored = (await storage.monthly.get('2026-10'))!;
        expect(stored).toEqual(made.find(Boolean));
        expect(stored.html).toBe('<h1>October</h1>');
        expect(stored.csv).toBe('"Period","1 Oct 2026 – 31 Oct 2026"\r\n');
        await storage.monthly.sent('2026-10', 'e-mail to a@b.example: sent (250 OK)');
        expect((await storage.monthly.get('2026-10'))!.sent).toBe('e-mail to a@b.example: sent (250 OK)');
        await storage.monthly.make(packOf('2026-09'), entry('report:monthly-pack'));
        await storage.monthly.make(packOf('2026-11'), entry('report:monthly-pack'));
        expect((await storage.monthly.list(10)).map((p) => p.period)).toEqual(['2026-11', '2026-10', '2026-09']);
        expect((await storage.monthly.list(1)).map((p) => p.period)).toEqual(['2026-11']);
        expect(await storage.monthly.get('2026-12')).toBeUndefined();
        // Two schedule changes and three packs made: one audit entry each, none for the packs not made.
        expect((await storage.audit.entries()).map((e) => e.action)).toEqual([
          'report:schedule',
          'report:schedule',
          'report:monthly-pack',
          'report:monthly-pack',
          'report:monthly-pack',
        ]);
        expect(await storage.audit.verify()).toMatchObject({ ok: true });
      }),
    );
  });
}
