import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { canonicalLanguage, guardNavigatorLanguage, usableLanguage } from '../../renderer/src/ui/locale.js';

/**
 * The renderer's locale module (issue 34): what a browser reports as its language is not always a
 * tag Intl accepts (Chromium under a C locale says "en-US@posix"), and the console must neither
 * crash on it nor hand it to a library that would.
 */
describe('canonicalLanguage', () => {
  it.each([
    ['en-US@posix', 'en-US'],
    ['de_DE.UTF-8', 'de-DE'],
    ['en_AU.utf8@euro', 'en-AU'],
    ['EN-au', 'en-AU'],
    ['zh-hant-tw', 'zh-Hant-TW'],
    ['fr', 'fr'],
  ])('%s → %s', (raw, tag) => {
    expect(canonicalLanguage(raw)).toBe(tag);
  });

  it.each([
    ['C'],
    ['POSIX'],
    ['C.UTF-8'],
    [''],
    ['   '],
    ['@posix'],
    ['en-12'],
    ['*'],
    ['en--US'],
    ['\u0000'],
    ['x'],
    ['-'],
    ['en-US-u'],
    [undefined],
    [null],
    [42],
    [{}],
  ])('says %j is no usable language', (raw) => {
    expect(canonicalLanguage(raw)).toBeNull();
  });
});

describe('usableLanguage', () => {
  it('takes the first usable language, else en-AU', () => {
    expect(usableLanguage(['C', 'en-US@posix', 'de-DE'])).toBe('en-US');
    expect(usableLanguage(['POSIX', '', undefined])).toBe('en-AU');
    expect(usableLanguage([])).toBe('en-AU');
  });

  it('always gives a tag Intl accepts, whatever the browser says', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string(), fc.constantFrom('en-US@posix', 'C', 'de_DE.UTF-8', 'i-klingon', 'en-US-x-')), { maxLength: 4 }),
        (list) => {
          const tag = usableLanguage(list);
          expect(() => new Intl.NumberFormat(tag).format(1234.5)).not.toThrow();
          expect(() => new Intl.DateTimeFormat(tag).format(0)).not.toThrow();
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('guardNavigatorLanguage', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('replaces a language Intl refuses, so a library that reads navigator.language works', () => {
    vi.stubGlobal('navigator', { language: 'en-US@posix', languages: ['en-US@posix', 'C'] });
    expect(() => new Intl.NumberFormat(navigator.language)).toThrow(RangeError); // what uPlot did as it loaded
    expect(guardNavigatorLanguage()).toEqual({ was: 'en-US@posix, C', now: 'en-US' });
    expect(navigator.language).toBe('en-US');
    expect(navigator.languages).toEqual(['en-US']);
    expect(() => new Intl.NumberFormat(navigator.language).format(1)).not.toThrow();
  });

  it('falls back to en-AU when nothing the browser says is usable', () => {
    vi.stubGlobal('navigator', { language: 'POSIX', languages: [] });
    expect(guardNavigatorLanguage()).toEqual({ was: 'POSIX', now: 'en-AU' });
    expect(navigator.language).toBe('en-AU');
  });

  it('leaves a valid language alone', () => {
    vi.stubGlobal('navigator', { language: 'de-DE', languages: ['de-DE', 'en-AU'] });
    expect(guardNavigatorLanguage()).toBeNull();
    expect(navigator.language).toBe('de-DE');
  });
});
