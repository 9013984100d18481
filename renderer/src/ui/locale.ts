/**
 * The one module that makes `Intl` objects and calls `toLocale*` (lint refuses them elsewhere in
 * the renderer and shared/).
 *
 * A browser's language is not always a tag `Intl` accepts: Chromium on a Linux machine whose locale
 * is C or POSIX (servers, VDI desktops, kiosks, CI runners) reports `navigator.language` as
 * `en-US@posix`, and `new Intl.NumberFormat('en-US@posix')` throws RangeError. The chart library
 * did exactly that when its module loaded, and every screen fell to a developer's error page
 * (issue 34). So:
 *
 * - the console's words and figures are Australian English in every browser (`CONSOLE_LOCALE`): its
 *   sentences are English, and "1,234" means the same on every screen, in every export and to every
 *   colleague reading a screenshot;
 * - the browser's own language is read through `usableLanguage`, which turns what a machine may say
 *   (`en-US@posix`, `de_DE.UTF-8`, `C`, `POSIX`, nothing at all) into a tag `Intl` accepts, falling
 *   back to en-AU, then en;
 * - `guardNavigatorLanguage` runs first in the page (main.tsx): when the browser's language is not a
 *   valid tag, `navigator.language` and `navigator.languages` say the usable one instead, so a
 *   library that reads them (uPlot builds a number formatter from `navigator.language` as its module
 *   loads) gets a valid tag too.
 */

export const CONSOLE_LOCALE = 'en-AU';
const FALLBACKS = [CONSOLE_LOCALE, 'en'] as const;

/** A tag Intl accepts and has data for, or null: "en-US@posix" → "en-US", "de_DE.UTF-8" → "de-DE", "C" → null. */
export function canonicalLanguage(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  // POSIX locale names: language_TERRITORY.codeset@modifier. The C and POSIX locales name no language.
  const posix = raw
    .trim()
    .replace(/[.@].*$/, '')
    .replace(/_/g, '-');
  if (!posix || /^(c|posix)$/i.test(posix)) return null;
  try {
    const [tag] = Intl.getCanonicalLocales(posix);
    if (!tag) return null;
    return Intl.NumberFormat.supportedLocalesOf([tag]).length > 0 ? tag : null;
  } catch {
    return null;
  }
}

/** The first usable language of the list (the browser's, best first), else en-AU, else en. */
export function usableLanguage(candidates: readonly unknown[]): string {
  for (const candidate of candidates) {
    const tag = canonicalLanguage(candidate);
    if (tag) return tag;
  }
  return FALLBACKS.find((tag) => canonicalLanguage(tag)) ?? 'en';
}

/** The browser's languages as it reports them (none outside a browser). */
function reported(): unknown[] {
  if (typeof navigator === 'undefined') return [];
  const list = Array.isArray(navigator.languages) ? [...navigator.languages] : [];
  return list.length ? list : [navigator.language];
}

/** The browser's language, made usable (for what follows the reader's own conventions). */
export function browserLanguage(): string {
  return usableLanguage(reported());
}

/**
 * Makes `navigator.language`/`languages` valid tags when the browser's are not, before any library
 * reads them. Returns what was replaced, for the log, or null when nothing needed to be.
 */
export function guardNavigatorLanguage(): { was: string; now: string } | null {
  if (typeof navigator === 'undefined') return null;
  const was = reported();
  // What browsers report almost always (language, script, region: "en-AU", "zh-Hant-TW") is told by
  // its shape, without asking Intl: the page's first Intl call sets up ICU, some 25 ms at start.
  if (was.length > 0 && was.every((tag) => typeof tag === 'string' && PLAIN_TAG.test(tag))) return null;
  const now = usableLanguage(was);
  const languages = Object.freeze([...new Set([now, ...was.map(canonicalLanguage).filter((t): t is string => t !== null)])]);
  try {
    Object.defineProperty(navigator, 'language', { value: now, configurable: true });
    Object.defineProperty(navigator, 'languages', { value: languages, configurable: true });
  } catch {
    return null; // a browser that does not allow it: our own formatters never read navigator anyway
  }
  return { was: was.map(String).join(', ') || '(none)', now };
}

/** A language, an optional script and an optional region, in their canonical case. */
const PLAIN_TAG = /^[a-z]{2,3}(-[A-Z][a-z]{3})?(-([A-Z]{2}|\d{3}))?$/;

const numberFormats = new Map<string, Intl.NumberFormat>();

/** A number formatter in the console's locale, one per set of options (made when first asked for). */
export function numberFormat(options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  const key = JSON.stringify(options);
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(CONSOLE_LOCALE, options);
    numberFormats.set(key, format);
  }
  return format;
}

let pluralRules: Intl.PluralRules | undefined;

/** English plural categories in the console's locale ("one" for 1, "other" otherwise), made when first asked for. */
export function pluralCategory(n: number): Intl.LDMLPluralRule {
  pluralRules ??= new Intl.PluralRules(CONSOLE_LOCALE);
  return pluralRules.select(n);
}
