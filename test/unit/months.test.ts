import { describe, expect, it } from 'vitest';
import { lastEndedMonth, month } from '../../shared/reports/month.js';

/** The monthly compliance pack's months (issue 38): calendar months in the schedule's zone, not UTC's. */
describe('months in a time zone', () => {
  it('start at local midnight: October 2026 in Sydney starts in daylight saving’s first October weekend', () => {
    // Sydney moves to daylight saving on 4 Oct 2026: October starts at +10, November at +11.
    expect(month('2026-10', 'Australia/Sydney')).toEqual({
      id: '2026-10',
      timeZone: 'Australia/Sydney',
      from: '2026-09-30T14:00:00.000Z',
      to: '2026-10-31T13:00:00.000Z',
      text: 'October 2026',
    });
    expect(month('2026-12', 'Australia/Perth')).toMatchObject({ from: '2026-11-30T16:00:00.000Z', to: '2026-12-31T16:00:00.000Z' });
    expect(month('2026-02', 'UTC')).toMatchObject({
      from: '2026-02-01T00:00:00.000Z',
      to: '2026-03-01T00:00:00.000Z',
      text: 'February 2026',
    });
  });

  it('the last ended month is the one before the local month of now, January’s the December before', () => {
    // 31 Oct 2026 14:30 UTC is already 1 November in Sydney, still 31 October in UTC.
    expect(lastEndedMonth(new Date('2026-10-31T14:30:00Z'), 'Australia/Sydney').id).toBe('2026-10');
    expect(lastEndedMonth(new Date('2026-10-31T14:30:00Z'), 'UTC').id).toBe('2026-09');
    expect(lastEndedMonth(new Date('2027-01-01T00:30:00+11:00'), 'Australia/Sydney')).toMatchObject({
      id: '2026-12',
      text: 'December 2026',
    });
  });

  it('refuses what is not a month', () => {
    for (const id of ['2026-13', '2026-00', '2026-1', '26-10', '2026-10-01', '1999-01']) expect(month(id, 'UTC'), id).toBeNull();
  });
});
