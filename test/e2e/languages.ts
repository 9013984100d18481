import { chromium, type Browser, type BrowserContext } from '@playwright/test';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_FLAGS, resolveChromium } from './chromium.js';

/**
 * Browsers in other languages than the suite's (issue 34). Playwright's test runner gives every
 * context it makes a language (en-US unless told), so a browser in the machine's own language, as a
 * person on a C-locale Linux desktop has it ("en-US@posix"), is started here by hand and reached
 * over the DevTools protocol: its default context has no language set by anyone but the machine.
 */
export type Language = 'machine' | 'posix' | 'de-auckland';

export const LANGUAGES: { id: Language; title: string }[] = [
  { id: 'machine', title: 'the machine’s own language (no locale set)' },
  { id: 'posix', title: 'en-US@posix (Chromium under a C locale)' },
  { id: 'de-auckland', title: 'de-DE, time zone Pacific/Auckland' },
];

export interface LanguageBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function browserIn(language: Language, browser: Browser): Promise<LanguageBrowser> {
  if (language === 'posix') {
    const context = await browser.newContext({ locale: 'en-US@posix' });
    return { context, close: () => context.close() };
  }
  if (language === 'de-auckland') {
    const context = await browser.newContext({ locale: 'de-DE', timezoneId: 'Pacific/Auckland' });
    return { context, close: () => context.close() };
  }
  return machineBrowser();
}

/** Chromium as the machine starts it, its language from the environment (LANG, LC_ALL), reached over CDP. */
async function machineBrowser(): Promise<LanguageBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'cdr-chromium-'));
  const child = spawn(
    await resolveChromium(),
    ['--headless', '--remote-debugging-port=0', `--user-data-dir=${profile}`, ...CHROMIUM_FLAGS, 'about:blank'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const killer = setTimeout(() => child.kill('SIGKILL'), 10 * 60_000);
  const endpoint = await new Promise<string>((resolve, reject) => {
    let err = '';
    const timer = setTimeout(() => reject(new Error(`Chromium did not start in 30 s:\n${err}`)), 30_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      const ws = /DevTools listening on (ws:\/\/\S+)/.exec(err)?.[1];
      if (ws) {
        clearTimeout(timer);
        resolve(ws);
      }
    });
    child.once('exit', (code) => reject(new Error(`Chromium exited with ${code}:\n${err}`)));
  });
  const cdp = await chromium.connectOverCDP(endpoint);
  const context = cdp.contexts()[0]!;
  return {
    context,
    async close() {
      await cdp.close().catch(() => undefined);
      clearTimeout(killer);
      child.kill('SIGKILL');
      await new Promise((r) => setTimeout(r, 200));
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
