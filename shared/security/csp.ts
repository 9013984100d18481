/**
 * The Content-Security-Policy of the console's UI, sent as a response header by both the
 * Electron custom protocol and the browser host, so the two can never drift apart.
 *
 * No inline or remote script, no eval, no plugins, no framing. Inline styles are allowed because
 * the component library sets style attributes at run time; styles cannot run code.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

/** Hosts the UI may open in the user's browser (through the OS, never inside the app). */
export const EXTERNAL_LINK_ALLOWLIST = [
  'consumerdatastandardsaustralia.github.io',
  'www.cdr.gov.au',
  'www.oaic.gov.au',
  'developer.adatree.com.au',
] as const;

/**
 * True for an https URL on an allowlisted host, without user info or a non-default port.
 * Parsed with a strict pattern rather than URL, which shared/ (no DOM, no Node) does not have;
 * anything the pattern does not fully recognise is refused.
 */
export function isAllowedExternalUrl(raw: string): boolean {
  const match = /^https:\/\/([a-z0-9.-]+)(?::443)?(?:[/?#]|$)/i.exec(raw);
  if (!match || /[\s\\]/.test(raw)) return false;
  return (EXTERNAL_LINK_ALLOWLIST as readonly string[]).includes(match[1]!.toLowerCase());
}
