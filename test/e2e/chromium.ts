import { existsSync } from 'node:fs';

/** How the end-to-end tests start Chromium: as root in a container, on a machine with no network beyond loopback. */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Which Chromium the end-to-end tests drive: CHROMIUM_PATH when set, Debian's /usr/bin/chromium
 * when installed, otherwise the Chromium shipped inside the @sparticuz/chromium dev dependency
 * (unpacked to the temp folder on first use), so `npm install && npm test` needs no apt step.
 * Playwright's own browser download is never used (it cannot reach its CDN here).
 */
export async function resolveChromium(): Promise<string> {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`CHROMIUM_PATH=${fromEnv} does not exist`);
    return fromEnv;
  }
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  const { default: packaged } = await import('@sparticuz/chromium');
  return packaged.executablePath();
}
