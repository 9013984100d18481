import { afterEach, describe, expect, it } from 'vitest';
import { TimeZone } from '../../shared/ipc/contract.js';
import { instantsOfDays, periodOfText, presetDays } from '../../shared/time/periods.js';
import {
  canonicalTimeZone,
  consoleTimeZone,
  dayOfInstant,
  inZone,
  knownTimeZones,
  machineTimeZone,
  pinTimeZone,
  zonedDateTime,
  zoneGeneration,
} from '../../shared/time/zone.js';

afterEach(() => {
  pinTimeZone(null);
});

describe('the console’s time zone', () => {
  it('follows the machine until a person pins one; an unknown name is refused and changes nothing', () => {
    expect(consoleTimeZone()).toBe(machineTimeZone());
    expect(inZone()).toEqual({});
    const before = zoneGeneration();
    expect(pinTimeZone('Australia/Perth')).toBe(true);
    expect(consoleTimeZone()).toBe('Australia/Perth');
    expect(zoneGeneration()).toBe(before + 1);
    expect(pinTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(pinTimeZone('')).toBe(false);
    expect(consoleTimeZone()).toBe('Australia/Perth');
    expect(pinTimeZone(null)).toBe(true);
    expect(consoleTimeZone()).toBe(machineTimeZone());
    // Pinning the machine's own zone is following it: nothing changes, so nothing is formatted again.
    const now = zoneGeneration();
    pinTimeZone(machineTimeZone());
    expect(zoneGeneration()).toBe(now);
    expect(inZone()).toEqual({});
  });

  it('knows zones by their IANA names, in their canonical case, and the contract refuses others with a reason', () => {
    expect(canonicalTimeZone('australia/sydney')).toBe('Australia/Sydney');
    expect(canonicalTimeZone('UTC')).toBe('UTC');
    for (const bad of ['', ' ', 'Sydney', 'GMT+25', 'x'.repeat(65), 42, null, undefined, '../etc/passwd'])
      expect(canonicalTimeZone(bad)).toBeNull();
    expect(TimeZone.safeParse('Pacific/Auckland').success).toBe(true);
    const refused = TimeZone.safeParse('Australia/Springfield');
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toMatch(/unknown time zone/);
    expect(knownTimeZones()).toContain('Australia/Sydney');
    expect(knownTimeZones()).toContain(machineTimeZone());
  });

  it('cuts days at the zone’s own midnights, through both daylight-saving changes of Sydney', () => {
    // 5 April 2026: Sydney goes from +11 to +10 at 3 a.m.; the day is 25 hours long.
    const april = dayOfInstant(Date.parse('2026-04-05T12:00:00Z'), 'Australia/Sydney');
    expect(april).toEqual({ day: '2026-04-05', start: Date.parse('2026-04-04T13:00:00Z') });
    // 4 October 2026: from +10 to +11 at 2 a.m.; the day is 23 hours long.
    const october = dayOfInstant(Date.parse('2026-10-04T12:59:59Z'), 'Australia/Sydney');
    expect(october).toEqual({ day: '2026-10-04', start: Date.parse('2026-10-03T14:00:00Z') });
    expect(dayOfInstant(Date.parse('2026-10-04T13:00:00Z'), 'Australia/Sydney').day).toBe('2026-10-05');
    // Auckland is a day ahead of the UTC date late in the UTC day; Los Angeles a day behind early on.
    expect(dayOfInstant(Date.parse('2026-11-27T12:00:00Z'), 'Pacific/Auckland').day).toBe('2026-11-28');
    expect(dayOfInstant(Date.parse('2026-11-27T03:00:00Z'), 'America/Los_Angeles').day).toBe('2026-11-26');
  });

  it('writes an export’s times in the zone, through the hour Sydney repeats and in a zone a quarter hour off', () => {
    // 5 April 2026, 3 a.m. in Sydney becomes 2 a.m.: 02:59:59 (+11), then 02:00:00 again (+10).
    expect(zonedDateTime('2026-04-04T15:59:59.999Z', 'Australia/Sydney')).toBe('2026-04-05 02:59:59');
    expect(zonedDateTime('2026-04-04T16:00:00.000Z', 'Australia/Sydney')).toBe('2026-04-05 02:00:00');
    expect(zonedDateTime('2026-10-03T15:59:59Z', 'Australia/Sydney')).toBe('2026-10-04 01:59:59');
    expect(zonedDateTime('2026-10-03T16:00:00Z', 'Australia/Sydney')).toBe('2026-10-04 03:00:00');
    expect(zonedDateTime('2026-11-27T18:20:00Z', 'Asia/Kathmandu')).toBe('2026-11-28 00:05:00');
    expect(zonedDateTime('2026-11-27T18:20:00Z', 'UTC')).toBe('2026-11-27 18:20:00');
    expect(zonedDateTime('not a time', 'UTC')).toBe('not a time');
    // Every quarter hour of a year in Sydney and in Los Angeles, against Intl's own answer.
    for (const zone of ['Australia/Sydney', 'America/Los_Angeles']) {
      const intl = new Intl.DateTimeFormat('en-CA', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      });
      for (let ms = Date.parse('2026-01-01T00:07:31Z'); ms < Date.parse('2027-01-01T00:00:00Z'); ms += 900_000 * 7) {
        const p = Object.fromEntries(intl.formatToParts(ms).map((x) => [x.type, x.value]));
        expect(zonedDateTime(new Date(ms).toISOString(), zone)).toBe(`${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`);
      }
    }
  });

  it('names “yesterday” and “last month” by the pinned zone’s calendar, as the instants a filter takes', () => {
    const now = new Date('2026-11-27T14:30:00Z'); // 28 Nov 01:30 in Sydney, 27 Nov 22:30 in Perth
    pinTimeZone('Australia/Sydney');
    expect(presetDays('yesterday', now)).toEqual(['2026-11-27', '2026-11-27']);
    expect(periodOfText('yesterday', now)).toEqual({ from: '2026-11-26T13:00:00.000Z', to: '2026-11-27T13:00:00.000Z' });
    expect(presetDays('lastMonth', now)).toEqual(['2026-10-01', '2026-10-31']);
    // October in Sydney starts on +10 and ends on +11.
    expect(instantsOfDays('2026-10-01', '2026-10-31')).toEqual({ from: '2026-09-30T14:00:00.000Z', to: '2026-10-31T13:00:00.000Z' });
    pinTimeZone('Australia/Perth');
    expect(presetDays('yesterday', now)).toEqual(['2026-11-26', '2026-11-26']);
    expect(instantsOfDays('2026-10-01', '2026-10-31')).toEqual({ from: '2026-09-30T16:00:00.000Z', to: '2026-10-31T16:00:00.000Z' });
  });
});
