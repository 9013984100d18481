import { describe, expect, it } from 'vitest';
import { failuresRange, filterOf, paramsFromView, viewFromParams, viewFromSaved } from '../../renderer/src/features/consents/view.js';
import { pickerPresets, presetDays } from '../../renderer/src/ui/periods.js';
import type { SavedView } from '../../shared/ipc/contract.js';
import { periodOfText } from '../../shared/time/periods.js';

/** The named periods (Today, Yesterday, Last 7 days…) as local days, and the consent list's webhook-failures filter in the URL. */
describe('named periods', () => {
  // 1 March, local noon: yesterday is the last day of February, last month all of February.
  const now = new Date(2028, 2, 1, 12, 0, 0);

  it('names local calendar days, both ends inclusive, across month and leap-year ends', () => {
    expect(presetDays('today', now)).toEqual(['2028-03-01', '2028-03-01']);
    expect(presetDays('yesterday', now)).toEqual(['2028-02-29', '2028-02-29']);
    expect(presetDays('last7', now)).toEqual(['2028-02-24', '2028-03-01']);
    expect(presetDays('last30', now)).toEqual(['2028-02-01', '2028-03-01']); // February 2028 has 29 days
    expect(presetDays('thisMonth', now)).toEqual(['2028-03-01', '2028-03-01']);
    expect(presetDays('lastMonth', now)).toEqual(['2028-02-01', '2028-02-29']);
    expect(presetDays('lastMonth', new Date(2027, 0, 15))).toEqual(['2026-12-01', '2026-12-31']);
    expect(pickerPresets(now).map((p) => p.label)).toEqual([
      'Today',
      'Yesterday',
      'Last 7 days',
      'Last 30 days',
      'This month',
      'Last month',
    ]);
  });

  it('turns a period into instants from local midnight to the next midnight after its last day', () => {
    const y = failuresRange('yesterday', now)!;
    expect(new Date(y.from!).getTime()).toBe(new Date(2028, 1, 29).getTime());
    expect(new Date(y.to!).getTime()).toBe(new Date(2028, 2, 1).getTime());
    expect(failuresRange('any', now)).toEqual({});
    expect(failuresRange('', now)).toBeUndefined();
    expect(failuresRange('..', now)).toBeUndefined();
    expect(new Date(failuresRange('2026-05-01..', now)!.from!).getTime()).toBe(new Date(2026, 4, 1).getTime());
  });

  it('keeps the webhook-failures filter in the URL: named, any time, chosen days; nonsense is no filter', () => {
    for (const q of ['failed=yesterday', 'failed=any', 'failed=2026-01-02..2026-01-03', 'failed=..'])
      expect(paramsFromView(viewFromParams(new URLSearchParams(q))).toString()).toBe(new URLSearchParams(q).toString());
    for (const q of ['failed=tomorrow', 'failed=2026-13-45', 'failed=']) {
      const view = viewFromParams(new URLSearchParams(q));
      expect(view.webhookFailures).toBe('');
      expect(filterOf(view).webhookFailures).toBeUndefined();
    }
    expect(filterOf(viewFromParams(new URLSearchParams('failed=any'))).webhookFailures).toEqual({});
    // A saved view keeps instants: back as days, or "at any time".
    const saved = { name: 'x', sort: { field: 'created', direction: 'desc' }, columns: ['status'] } as const satisfies Omit<
      SavedView,
      'filter'
    >;
    expect(viewFromSaved({ ...saved, filter: { webhookFailures: {} } }).webhookFailures).toBe('any');
    const days = filterOf(viewFromParams(new URLSearchParams('failed=2026-01-02..2026-01-03'))).webhookFailures;
    expect(viewFromSaved({ ...saved, filter: { webhookFailures: days! } }).webhookFailures).toBe('2026-01-02..2026-01-03');
  });

  it('reads a period written on a command line, and refuses what is not one', () => {
    const local = (y: number, m: number, d: number) => new Date(y, m - 1, d).toISOString();
    expect(periodOfText('any', now)).toEqual({});
    expect(periodOfText('yesterday', now)).toEqual({ from: local(2028, 2, 29), to: local(2028, 3, 1) });
    expect(periodOfText(' 2026-11-27 ', now)).toEqual({ from: local(2026, 11, 27), to: local(2026, 11, 28) });
    expect(periodOfText('2026-11-01..2026-11-27', now)).toEqual({ from: local(2026, 11, 1), to: local(2026, 11, 28) });
    expect(periodOfText('..2026-11-27', now)).toEqual({ to: local(2026, 11, 28) });
    expect(periodOfText('2026-11-01..', now)).toEqual({ from: local(2026, 11, 1) });
    for (const bad of ['', '..', 'tomorrow', 'Yesterday', '2026-02-30', '2026-11-27..2026-11-01', '2026-11-01..x', '1..2..3', '27/11/2026'])
      expect(periodOfText(bad, now), bad).toBeUndefined();
  });
});
