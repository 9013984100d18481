import { describe, expect, it } from 'vitest';
import { fillDays } from '../../renderer/src/ui/days.js';

const d = (day: string, total: number) => ({ day, counts: total ? { GRANTED: total } : {}, total });

describe('per-day counts for charts', () => {
  it('puts back the quiet days between the answered ones, oldest first', () => {
    const filled = fillDays([d('2026-11-05', 2), d('2026-11-01', 1)]);
    expect(filled.map((x) => `${x.day}:${x.total}`)).toEqual([
      '2026-11-01:1',
      '2026-11-02:0',
      '2026-11-03:0',
      '2026-11-04:0',
      '2026-11-05:2',
    ]);
  });

  it('runs over the whole period asked, across a month end and a daylight-saving change', () => {
    // Sydney and most of Europe change their clocks in late March / early April and October.
    const filled = fillDays([d('2026-10-03', 4)], { from: '2026-09-29', to: '2026-10-06' });
    expect(filled.map((x) => x.day)).toEqual([
      '2026-09-29',
      '2026-09-30',
      '2026-10-01',
      '2026-10-02',
      '2026-10-03',
      '2026-10-04',
      '2026-10-05',
      '2026-10-06',
    ]);
    expect(filled.find((x) => x.day === '2026-10-03')?.total).toBe(4);
  });

  it('gives nothing back for nothing answered, and keeps the data when the bounds are reversed', () => {
    expect(fillDays([])).toEqual([]);
    expect(fillDays([d('2026-11-02', 1)], { from: '2026-11-03', to: '2026-11-01' }).map((x) => x.day)).toEqual(['2026-11-02']);
  });
});
