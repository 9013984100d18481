import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCoreHost, type CoreHost } from '../../electron/core/core-host.js';
import { lastEndedMonth } from '../../shared/reports/month.js';
import { startSmtpSink } from '../helpers/smtp.js';
import { tempDir } from '../helpers/temp.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- envelopes are read as loose JSON */

/**
 * The monthly compliance pack (issue 38), as a compliance officer schedules it: turned on before
 * the console has synced since the month ended, nothing is made; at the next start and sync (the
 * catch-up) last month's pack is made — once, however often the console checks — with the
 * Reports screen's figures for that month in Sydney's calendar, kept as made (its export hashes to
 * the SHA-256 in the audit log) and e-mailed with its two files to a real SMTP server.
 */
const quiet = { info() {}, error() {} };
const ZONE = 'Australia/Sydney';
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
let dataDir: string;
let host: CoreHost | undefined;

beforeAll(async () => {
  smtp = await startSmtpSink();
  dataDir = tempDir('cdr-monthly-');
});
afterAll(async () => {
  await host?.close();
  await smtp?.close();
});

const start = () =>
  startCoreHost({ dataDir, host: 'browser', appVersion: 'test', log: quiet, sandbox: { seed: 37, consents: 60 }, syncEveryMinutes: 0 });
const call = async (channel: string, input: unknown): Promise<any> => host!.router.handle(channel, input, true);
const ok = async (channel: string, input: unknown): Promise<any> => {
  const e = await call(channel, input);
  if (!e.ok) throw new Error(`${channel}: ${e.error.code} ${e.error.message}`);
  return e.value;
};

/** A MIME part's body by its attachment's file name, decoded (base64 or quoted-printable). */
function attachment(raw: string, filename: string): string | undefined {
  for (const part of raw.split(/\r?\n--[^\r\n]+\r?\n/)) {
    const cut = part.search(/\r?\n\r?\n/);
    const head = part.slice(0, cut);
    if (!head.includes(`filename=${filename}`) && !head.includes(`filename="${filename}"`)) continue;
    const body = part
      .slice(cut)
      .trim()
      .split(/\r?\n--/)[0]!;
    if (/content-transfer-encoding: base64/i.test(head)) return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    return Buffer.from(
      body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
      'latin1',
    ).toString('utf8');
  }
  return undefined;
}

describe('the monthly compliance pack', () => {
  it('scheduled before a sync, made at the next start once synced: once, with the month’s figures, kept as made and e-mailed', async () => {
    host = await start();
    const port = smtp.port;
    await ok('alerts:setDelivery', {
      email: { smtpUrl: `smtp://127.0.0.1:${port}`, from: 'console@recipient.example', to: ['compliance@recipient.example'] },
    });
    expect(await ok('reports:monthlyPacks', {})).toEqual({ schedule: null, packs: [] });
    const refused = await call('reports:scheduleMonthlyPack', { enabled: true, timeZone: 'Mars/Olympus_Mons' });
    expect(refused.error.message).toBe('Mars/Olympus_Mons is not a time zone the console knows (an IANA name, such as Australia/Sydney).');
    const schedule = await ok('reports:scheduleMonthlyPack', { enabled: true, timeZone: ZONE });
    expect(schedule).toMatchObject({ enabled: true, timeZone: ZONE });
    // No sync since the month ended (none at all): nothing is made, however often it is checked.
    await new Promise((r) => setTimeout(r, 300));
    expect((await ok('reports:monthlyPacks', {})).packs).toEqual([]);
    await host.close();

    // The next start, and its sync: the missed month's pack is made.
    host = await start();
    const m = lastEndedMonth(new Date(), ZONE);
    await host.core().sync();
    await expect.poll(async () => (await ok('reports:monthlyPacks', {})).packs.length, { timeout: 15_000 }).toBe(1);
    await expect.poll(() => smtp.mails.length, { timeout: 15_000 }).toBe(1);
    const [pack] = (await ok('reports:monthlyPacks', {})).packs;
    expect(pack).toMatchObject({ period: m.id, text: m.text, timeZone: ZONE, from: m.from, to: m.to, madeBy: 'CDR Console (reports)' });
    expect(pack.sent).toMatch(/^e-mail to compliance@recipient\.example: sent/);

    // The month's figures, as the Reports screen counts them, in the pack's CSV.
    const exported = async (format: 'html' | 'csv') => {
      const { jobId } = await ok('reports:exportMonthlyPack', { period: m.id, format });
      await expect.poll(async () => (await ok('jobs:list', {})).find((j: any) => j.jobId === jobId)?.state).toBe('finished');
      return readFileSync((await ok('jobs:list', {})).find((j: any) => j.jobId === jobId).result.path, 'utf8');
    };
    const csv = await exported('csv');
    const screen = await ok('reports:compliance', { from: m.from, to: m.to });
    expect(screen.counts.length).toBeGreaterThan(3);
    for (const c of screen.counts) expect(csv).toContain(`"${c.label.replace(/^— /, '  ')}","${c.count}"`);
    const html = await exported('html');
    expect(createHash('sha256').update(html).digest('hex')).toBe(pack.sha256);
    expect(html).toContain(`CDR compliance report`);

    // The e-mail: its subject, and the pack's two files as made.
    const mail = smtp.mails[0]!;
    expect(mail).toMatch(new RegExp(`^Subject: \\[CDR Console\\] Compliance pack: ${m.text}$`, 'm'));
    expect(attachment(mail, `cdr-compliance-pack-${m.id}.html`)).toBe(html);
    expect(attachment(mail, `cdr-compliance-pack-${m.id}.csv`)).toBe(csv);

    // Synced and checked again: still one pack, one e-mail.
    await host.core().sync();
    await ok('reports:scheduleMonthlyPack', { enabled: true, timeZone: ZONE });
    await new Promise((r) => setTimeout(r, 500));
    expect((await ok('reports:monthlyPacks', {})).packs).toHaveLength(1);
    expect(smtp.mails).toHaveLength(1);
    const actions = async (action: string) => (await ok('audit:query', { filter: { action }, offset: 0, limit: 20 })).rows;
    expect((await actions('report:monthly-pack')).map((e: any) => e.result)).toEqual([
      `monthly compliance pack for ${m.text} (${ZONE}) made: sha256 ${pack.sha256}`,
    ]);
    expect(await actions('report:sent')).toHaveLength(1);
    expect(await actions('report:schedule')).toHaveLength(2);
  });
});
