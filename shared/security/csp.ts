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

export function isAllowedExternalUrl(raw: string): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  return (
    url.protocol === 'https:' &&
    url.username === '' &&
    url.password === '' &&
    (EXTERNAL_LINK_ALLOWLIST as readonly string[]).includes(url.hostname)
  );
}
