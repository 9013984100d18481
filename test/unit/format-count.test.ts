import { describe, expect, it } from 'vitest';
import { formatCount, plural } from '../../renderer/src/ui/format.js';

// formatCount groups whole numbers itself (no Intl object at start); what it shows must be what
// Intl's en-AU formatter shows, which it still uses for everything else.
describe('formatCount', () => {
  const intl = new Intl.NumberFormat('en-AU');

  it('groups whole numbers exactly as en-AU does', () => {
    const values = [0, 1, 9, 10, 99, 100, 999, 1000, 1001, 9999, 10_000, 12_345, 100_000, 999_999, 1_000_000, 1_234_567_890];
    for (let i = 0; i < 2000; i++) values.push(Math.floor(Math.random() * 10 ** (1 + (i % 16))));
    values.push(Number.MAX_SAFE_INTEGER);
    for (const v of values) {
      expect(formatCount(v)).toBe(intl.format(v));
      expect(formatCount(-v)).toBe(intl.format(-v));
    }
  });

  it('leaves fractions, huge numbers and non-numbers to Intl', () => {
    for (const v of [1.5, 1234.5678, -0.25, -0, 1e21, 2 ** 60, Number.NaN, Number.POSITIVE_INFINITY])
      expect(formatCount(v)).toBe(intl.format(v));
  });

  it('reads in a plural', () => {
    expect(plural(100_000, 'consent')).toBe('100,000 consents');
    expect(plural(1, 'consent')).toBe('1 consent');
  });
});
