import { describe, expect, it } from 'vitest';
import { EVENT_TYPES, KNOWN_CONSENT_STATUSES } from '../../shared/schemas/consent.js';
import { clientText } from '../../renderer/src/ui/client-text.js';
import { enumText } from '../../renderer/src/ui/format.js';
import { auditActionText, eventTerm, statusTerm, unitText } from '../../renderer/src/ui/glossary.js';

/** Plain words for what the APIs send (issue 34): the glossary, and the words the screens show. */
describe('the glossary', () => {
  it('has words, a meaning and one colour for every event type and status the API documents, none shared by two event types', () => {
    for (const t of EVENT_TYPES) {
      const term = eventTerm(t);
      expect(term.words, t).not.toBe(t);
      expect(term.meaning.length, t).toBeGreaterThan(20);
    }
    const colours = EVENT_TYPES.map((t) => eventTerm(t).chart.light);
    expect(new Set(colours).size).toBe(EVENT_TYPES.length);
    for (const s of KNOWN_CONSENT_STATUSES) expect(statusTerm(s)?.words).toMatch(/^[A-Z][a-z]+$/);
    // A type a newer API sends: shown as sent, in grey.
    expect(eventTerm('CONSENT_PAUSED')).toMatchObject({ words: 'CONSENT_PAUSED', pill: 'gray' });
  });

  it('puts API values in words: product categories, units, audit actions, the client of an entry', () => {
    expect(enumText('CRED_AND_CHRG_CARDS')).toBe('Credit and charge cards');
    expect(enumText('PERS_LOANS')).toBe('Personal loans');
    expect(enumText('DE_IDENTIFICATION')).toBe('De-identification');
    expect(unitText('KWH')).toBe('kWh');
    expect(unitText('kvarh')).toBe('kvarh');
    expect(unitText('DOLLAR')).toBe('Dollar');
    expect(auditActionText('sign-in:failed')).toBe('Sign-in failed');
    expect(auditActionText('retention:de-identified')).toBe('Retention de-identified data');
    expect(auditActionText('bulk:paused_by-admin')).toBe('Bulk paused by-admin');
    expect(auditActionText('job:resumed')).toBe('Job resumed');
    expect(
      clientText(
        '203.0.113.7 Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      ),
    ).toBe('Chrome 131 on Windows · 203.0.113.7');
    expect(clientText('::1 node')).toBe('node · ::1');
    expect(clientText('127.0.0.1')).toBe('127.0.0.1');
  });
});
