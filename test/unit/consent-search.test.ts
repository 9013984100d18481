import { describe, expect, it } from 'vitest';
import { matchedRanges, nearlyAnywhere, parseSearch, tierWindows } from '../../shared/consents/search.js';

/** What a typed search means (shared/consents/search.ts): the words, where each matches, what a row marks. */
describe('the consent search', () => {
  it('reads words of 3 characters or more as found anywhere, shorter ones at a word’s start', () => {
    expect(parseSearch('  ')).toBeUndefined();
    expect(parseSearch('smith ja')).toEqual({
      words: [{ start: 'smith', anywhere: ['smith'] }, { start: 'ja' }],
      tiered: true,
    });
    expect(parseSearch('ja b')).toEqual({ words: [{ start: 'ja' }, { start: 'b' }], tiered: false });
    // Folded as the index folds: case and diacritics do not count.
    expect(parseSearch('ZOË')?.words[0]?.anywhere).toEqual(['zoe']);
    // At most 8 words.
    expect(parseSearch('a b c d e f g h i j')?.words).toHaveLength(8);
  });

  it('says which word one more character makes a word found anywhere (what the cache finds ahead)', () => {
    expect(nearlyAnywhere('sm')).toBe('sm');
    expect(nearlyAnywhere('john SM')).toBe('sm');
    expect(nearlyAnywhere('Ñú')).toBe('nu');
    expect(nearlyAnywhere('34')).toBe('34');
    // Not two characters, or a space after them (the next one begins another word), or nothing.
    expect([nearlyAnywhere('s'), nearlyAnywhere('smi'), nearlyAnywhere('sm '), nearlyAnywhere(''), nearlyAnywhere(undefined)]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('reads digits alone as one run of a phone number, however written, from 0 as the stored +61', () => {
    expect(parseSearch('0412 345 678')?.words).toEqual([{ start: '+61412345678', anywhere: ['0412345678', '+61412345678'] }]);
    expect(parseSearch('(0412) 345-6')?.words).toEqual([{ start: '+614123456', anywhere: ['04123456', '+614123456'] }]);
    expect(parseSearch('345 678')?.words).toEqual([{ start: '345678', anywhere: ['345678'] }]);
    expect(parseSearch('+61 412')?.words).toEqual([{ start: '+61412', anywhere: ['+61412'] }]);
    expect(parseSearch('61412345678')?.words).toEqual([{ start: '+61412345678', anywhere: ['61412345678'] }]);
    // Fewer than 4 digits are words as any other.
    expect(parseSearch('04 1')?.words).toEqual([{ start: '04' }, { start: '1' }]);
  });

  it('marks each place a word matched, in the text as shown', () => {
    const s = (text: string) => parseSearch(text);
    expect(matchedRanges('James.Smith@Example.com', s('smith'))).toEqual([[6, 11]]);
    expect(matchedRanges('James.Smith@Example.com', s('ja ample'))).toEqual([
      [0, 2],
      [14, 19],
    ]);
    // A short word only where a word starts ("am" is inside James: no mark).
    expect(matchedRanges('James Amber', s('am'))).toEqual([[6, 8]]);
    // Overlapping words make one mark; every occurrence is marked.
    expect(matchedRanges('abcabc', s('abc bca'))).toEqual([[0, 6]]);
    expect(matchedRanges('abc-abc', s('abc'))).toEqual([
      [0, 3],
      [4, 7],
    ]);
    // Diacritics and combining marks: the mark covers the letters as shown.
    expect(matchedRanges('Zoë Müller', s('muller'))).toEqual([[4, 10]]);
    expect(matchedRanges('Zoe\u0308 x', s('zoe'))).toEqual([[0, 4]]);
    // A mobile as stored, found from the number said at home.
    expect(matchedRanges('+61412345678', s('0412 345'))).toEqual([[0, 9]]);
    expect(matchedRanges('+61412345678', s('5678'))).toEqual([[8, 12]]);
    expect(matchedRanges('anything', undefined)).toEqual([]);
    // A field searched at a word's start only (the use case's name): no mark inside a word.
    expect(matchedRanges('Energy plan comparison', s('son'), { atStartOnly: true })).toEqual([]);
    expect(matchedRanges('Energy plan comparison', s('compa'), { atStartOnly: true })).toEqual([[12, 17]]);
  });

  it('splits a window of a tiered list between the first group and the others', () => {
    expect(tierWindows(0, 10, 4)).toEqual({ first: { offset: 0, limit: 4 }, rest: { offset: 0, limit: 6 } });
    expect(tierWindows(2, 2, 4)).toEqual({ first: { offset: 2, limit: 2 } });
    expect(tierWindows(4, 5, 4)).toEqual({ rest: { offset: 0, limit: 5 } });
    expect(tierWindows(7, 5, 4)).toEqual({ rest: { offset: 3, limit: 5 } });
    expect(tierWindows(0, 5, 0)).toEqual({ rest: { offset: 0, limit: 5 } });
  });
});
