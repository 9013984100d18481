import { format, formatDistanceStrict, isValid, parseISO } from 'date-fns';
import { numberFormat, pluralCategory } from './locale.js';
import { consoleTimeZone, inZone, zoneGeneration } from '../../../shared/time/zone.js';
import { glossaryWords } from './glossary.js';

/**
 * Times are stored in UTC (ISO 8601 with milliseconds) and shown in the console's time zone (the
 * machine's, or the one pinned in Settings: shared/time/zone.ts); the stored UTC value is always one
 * step away (hover or focus). Unparseable values are shown as they are.
 */
export function formatLocalDateTime(iso: string | null | undefined, withSeconds = false): string {
  if (!iso) return '—';
  return remembered(withSeconds ? 'S' : 'M', iso, () => {
    const d = parseISO(iso);
    return isValid(d) ? format(d, withSeconds ? 'd MMM yyyy, HH:mm:ss' : 'd MMM yyyy, HH:mm', inZone()) : iso;
  });
}

export function formatLocalDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  return remembered('D', iso, () => {
    const d = parseISO(iso);
    return isValid(d) ? format(d, 'd MMM yyyy', inZone()) : iso;
  });
}

/** The local time of day (HH:mm), for something that happened today or lately (the status bar's "since 10:42"). */
export function formatClock(iso: string | null | undefined): string {
  if (!iso) return '—';
  return remembered('C', iso, () => {
    const d = parseISO(iso);
    return isValid(d) ? format(d, 'HH:mm', inZone()) : iso;
  });
}

/** The UTC value to the millisecond, as stored. */
export function formatUtc(iso: string): string {
  return remembered('U', iso, () => {
    const d = parseISO(iso);
    return isValid(d) ? `${d.toISOString()} (UTC)` : iso;
  });
}

/**
 * The times a table shows are formatted again at every render (a keystroke in a search renders
 * the rows twice): the texts are remembered, a few thousand at most, and forgotten when the
 * console's zone changes. (A change of the machine's own zone while the console runs shows in the
 * texts made after it.)
 */
const texts = new Map<string, string>();
let textsZone = zoneGeneration();
function remembered(kind: string, iso: string, make: () => string): string {
  if (textsZone !== zoneGeneration()) {
    texts.clear();
    textsZone = zoneGeneration();
  }
  const key = kind + iso;
  let text = texts.get(key);
  if (text === undefined) {
    if (texts.size >= 5000) texts.clear();
    text = make();
    texts.set(key, text);
  }
  return text;
}

/** The console's time zone's name, for labels ("times in Australia/Sydney") and exports. */
export function localZone(): string {
  return consoleTimeZone();
}

/** How long ago ("just now", "5 minutes ago"); the same text within a second (the offline reason is worked out at every redraw). */
export function formatAgo(iso: string | null, now = new Date()): string {
  if (!iso) return 'never';
  const second = Math.floor(now.getTime() / 1000);
  return remembered('A', `${second} ${iso}`, () => {
    const d = parseISO(iso);
    if (!isValid(d)) return iso;
    const at = new Date(second * 1000);
    return at.getTime() - d.getTime() < 60_000 ? 'just now' : `${formatDistanceStrict(d, at)} ago`;
  });
}

/**
 * One formatter for all (toLocaleString builds a new one at every call: a millisecond each in
 * Chromium, on every render of a count), made when first needed: the first Intl object a page
 * makes sets up ICU's data, 25–30 ms of the first screen's script at start (issue 21). Whole
 * numbers, which every count is, are grouped here as en-AU groups them ("100,000", "-1,234").
 */
export function formatCount(n: number): string {
  if (Number.isSafeInteger(n) && !Object.is(n, -0)) {
    const digits = String(Math.abs(n));
    let text = digits.slice(0, ((digits.length - 1) % 3) + 1);
    for (let i = text.length; i < digits.length; i += 3) text += `,${digits.slice(i, i + 3)}`;
    return n < 0 ? `-${text}` : text;
  }
  return numberFormat().format(n);
}

/** "1 consent", "2,345 consents". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${pluralCategory(n) === 'one' ? one : many}`;
}

/** A plural noun's singular when the count is one: "products" → "product" (`one` when it is not just without its s). */
export function nounFor(n: number, many: string, one = many.replace(/s$/, '')): string {
  return pluralCategory(n) === 'one' ? one : many;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** Enum values whose plain-words form is not just the words of the name. */
const ENUM_WORDS: Record<string, string> = {
  DE_IDENTIFICATION: 'De-identification',
  ONCE_OFF: 'Once-off',
  'already-inactive': 'Already inactive',
};

/** An enum value in words: ONGOING → "Ongoing"; DE_IDENTIFICATION → "De-identification". */
export function enumText(value: string | null | undefined): string {
  if (!value) return '—';
  if (ENUM_WORDS[value]) return ENUM_WORDS[value];
  const known = glossaryWords(value);
  if (known) return known;
  const words = value.toLowerCase().replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A name's initials for an avatar: "Commonwealth Bank" → "CB"; nothing known → "?". */
export function initials(name: string | null | undefined): string {
  return (name ?? '?')
    .split(/\s+/)
    .map((w) => w[0])
    .join('')
    .slice(0, 2)
    .toUpperCase();
}
