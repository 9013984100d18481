import { describe, expect, it } from 'vitest';
import { daysLeft, halfYear, halfYearOf, lastEndedHalfYear, previousHalfYear, signOffProblems } from '../../shared/reports/rule94.js';

/**
 * The rule 9.4 report's half-years (issue 38): 1 January – 30 June and 1 July – 31 December in
 * Australian time (Sydney's calendar, daylight saving in summer), whatever the machine's zone; due 30
 * days after; and what stops a sign-off.
 */
describe('half-years in Australian time', () => {
  it('start at local midnight in Sydney: 11 hours before UTC’s in January (daylight saving), 10 in July', () => {
    expect(halfYear('2026-H1')).toEqual({
      id: '2026-H1',
      from: '2025-12-31T13:00:00.000Z',
      to: '2026-06-30T14:00:00.000Z',
      firstDay: '2026-01-01',
      lastDay: '2026-06-30',
      text: '1 Jan 2026 – 30 Jun 2026',
      dueOn: '2026-07-30',
    });
    expect(halfYear('2026-H2')).toMatchObject({ from: '2026-06-30T14:00:00.000Z', to: '2026-12-31T13:00:00.000Z', dueOn: '2027-01-30' });
  });

  it('puts an instant in the half-year of its day in Sydney, not of its UTC day', () => {
    expect(halfYearOf(new Date('2026-06-30T13:59:59.999Z')).id).toBe('2026-H1'); // 23:59:59 on 30 June there
    expect(halfYearOf(new Date('2026-06-30T14:00:00.000Z')).id).toBe('2026-H2'); // midnight, 1 July there
    expect(halfYearOf(new Date('2025-12-31T13:00:00.000Z')).id).toBe('2026-H1'); // still 31 Dec in UTC
    expect(lastEndedHalfYear(new Date('2026-07-01T00:00:00.000Z')).id).toBe('2026-H1');
    expect(lastEndedHalfYear(new Date('2026-06-30T13:00:00.000Z')).id).toBe('2025-H2');
    expect(previousHalfYear(halfYear('2026-H1')!).id).toBe('2025-H2');
    expect(previousHalfYear(halfYear('2026-H2')!).id).toBe('2026-H1');
  });

  it('refuses what is not a half-year', () => {
    for (const id of ['2026-H3', '2026-h1', '26-H1', '2026-H1 ', '1900-H1']) expect(halfYear(id), id).toBeNull();
  });

  it('counts the days left until the end of its due day in Sydney', () => {
    const h = halfYear('2026-H1')!;
    expect(daysLeft(h, new Date('2026-07-01T02:00:00.000Z'))).toBe(29); // noon on 1 July there
    expect(daysLeft(h, new Date('2026-07-30T13:59:00.000Z'))).toBe(0); // 23:59 on the due day
    expect(daysLeft(h, new Date('2026-07-30T14:00:00.000Z'))).toBe(-1); // past it
  });

  it('says which required answers are missing before a sign-off', () => {
    expect(signOffProblems({ entityName: 'Acme', accreditationNumber: '  ' })).toEqual([
      'Accreditation number is not answered.',
      'CDR complaints received outside this register is not answered.',
    ]);
    expect(signOffProblems({ entityName: 'Acme', accreditationNumber: 'ADR1', complaintsElsewhere: 'None' })).toEqual([]);
  });
});
