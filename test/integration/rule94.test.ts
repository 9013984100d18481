import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCoreHost, type CoreHost } from '../../electron/core/core-host.js';
import { World } from '../../electron/sandbox/world.js';
import { halfYear } from '../../shared/reports/rule94.js';
import { tempDir } from '../helpers/temp.js';

/** An instant's milliseconds; null when there is none (SQL's NULL, which compares as neither). */
const at = (iso: string | null | undefined): number | null => (iso ? Date.parse(iso) : null);

/* eslint-disable @typescript-eslint/no-explicit-any -- envelopes are read as loose JSON */

/**
 * The rule 9.4 report (issue 38) through the router, on a real SQLite cache synced from the embedded
 * sandbox. The console runs on 30 June 2026 at 23:30 in Sydney, stops, and starts again on 1 July:
 * the half-year's report it missed is made at its first sync (never from a cache last synced before
 * the half-year ended). Its figures are counted again here,
 * independently, from the sandbox's own records (a World of the same seed) and the complaints
 * recorded; it is answered, refused sign-off while a required answer is missing, signed off and
 * archived with its hash in the audit log, exported, and reminded of by alert until signed.
 */
const quiet = { info() {}, error() {} };
const SANDBOX = { seed: 7, consents: 40, clockOrigin: '2026-11-01T00:00:00Z' };
const BEFORE_END = new Date('2026-06-30T13:30:00.000Z'); // 23:30 on 30 June in Sydney (AEST, +10)
const AFTER_END = new Date('2026-07-01T02:00:00.000Z'); // noon on 1 July in Sydney
const H1 = halfYear('2026-H1')!;
let host: CoreHost;
let dataDir: string;
let now = BEFORE_END;
const start = () => startCoreHost({ dataDir, host: 'browser', appVersion: 'test', log: quiet, sandbox: SANDBOX, clock: () => now });
const call = async (channel: string, input: unknown): Promise<any> => host.router.handle(channel, input, true);
const ok = async (channel: string, input: unknown): Promise<any> => {
  const e = await call(channel, input);
  if (!e.ok) throw new Error(`${channel}: ${e.error.code} ${e.error.message}`);
  return e.value;
};
const refused = async (channel: string, input: unknown): Promise<{ code: string; message: string }> => {
  const e = await call(channel, input);
  expect(e.ok, `${channel} should be refused`).toBe(false);
  return e.error;
};
const figure = (r: any, key: string) => r.figures.find((f: any) => f.key === key)?.value;

beforeAll(async () => {
  dataDir = tempDir();
  host = await start();
  await host.core().sync();
  const complaint = (over: Record<string, unknown>) => ({
    receivedOn: '2026-03-02',
    channel: 'phone',
    category: 'privacy',
    description: 'Asked what was shared.',
    consentId: null,
    consumerId: 'consumer-a',
    outcome: null,
    resolvedOn: null,
    referredTo: null,
    ...over,
  });
  await ok('complaints:record', complaint({}));
  await ok(
    'complaints:record',
    complaint({ receivedOn: '2026-04-10', category: 'withdrawal', outcome: 'upheld', resolvedOn: '2026-05-01', referredTo: 'AFCA' }),
  );
  await ok('complaints:record', complaint({ receivedOn: '2026-06-30', category: 'other' }));
}, 120_000);
afterAll(async () => host?.close());

describe('the rule 9.4 report', () => {
  it('before the half-year ends, only the one before is made; after a restart on 1 July the missed one is, once synced', async () => {
    await expect.poll(async () => (await ok('biannual:list', {})).reports.map((r: any) => r.period)).toEqual(['2025-H2']);
    expect((await ok('biannual:list', {})).current).toEqual({ period: '2026-H1', text: '1 Jan 2026 – 30 Jun 2026', dueOn: '2026-07-30' });
    expect((await refused('biannual:prepare', { period: '2026-H1' })).message).toMatch(/has not ended/);

    await host.close();
    now = AFTER_END;
    host = await start();
    // The cache was last synced before the half-year ended: the report waits for a sync.
    await ok('alerts:evaluate', {});
    expect((await ok('biannual:list', {})).reports.map((r: any) => r.period)).toEqual(['2025-H2']);
    await host.core().sync();
    await expect.poll(async () => (await ok('biannual:list', {})).reports.map((r: any) => r.period)).toEqual(['2026-H1', '2025-H2']);
    const made = await ok('biannual:get', { period: '2026-H1' });
    expect(made).toMatchObject({
      state: 'draft',
      madeBy: 'CDR Console (reports)',
      madeAt: AFTER_END.toISOString(),
      from: '2025-12-31T13:00:00.000Z', // midnight on 1 January in Sydney (AEDT, +11)
      to: '2026-06-30T14:00:00.000Z',
      dueOn: '2026-07-30',
      sha256: null,
      version: 1,
    });
    const entries = (await ok('audit:query', { filter: { action: 'rule94:made' }, offset: 0, limit: 10 })).rows;
    expect(entries.map((e: any) => e.result)).toEqual([
      expect.stringMatching(/^Rule 9\.4 report for 1 Jan 2026 – 30 Jun 2026 made: .*; due 2026-07-30$/),
      expect.stringMatching(/^Rule 9\.4 report for 1 Jul 2025 – 31 Dec 2025 made/),
    ]);
  });

  it('holds the figures counted independently from the sandbox’s records and the register, each saying how', async () => {
    const world = new World(SANDBOX);
    const [from, to] = [Date.parse(H1.from), Date.parse(H1.to)];
    const events = world.events({}, 0, 10_000_000).events.filter((e) => Date.parse(e.timestamp) >= from && Date.parse(e.timestamp) < to);
    const count = (type: string) => events.filter((e) => e.eventType === type).length;
    const consents = Array.from({ length: world.total }, (_, i) => world.consent(i));
    const served = new Set(
      consents
        .filter(
          (c) =>
            !!c.consumerId &&
            (at(c.created) ?? Infinity) < to &&
            (at(c.revoked) ?? Infinity) >= from &&
            (at(c.sharingEndDate) ?? Infinity) >= from,
        )
        .map((c) => c.consumerId),
    ).size;
    const r = await ok('biannual:get', { period: '2026-H1' });
    expect(count('GRANTED') + count('REVOKED')).toBeGreaterThan(0); // the sandbox had activity in the half-year
    expect({
      served: figure(r, 'consumers-served'),
      requests: figure(r, 'requests'),
      granted: figure(r, 'granted'),
      extended: figure(r, 'extended'),
      withdrawn: figure(r, 'withdrawn'),
      byStaff: figure(r, 'withdrawn-staff'),
      expired: figure(r, 'expired'),
      received: figure(r, 'complaints-received'),
      privacy: figure(r, 'complaints-received:privacy'),
      resolved: figure(r, 'complaints-resolved'),
      upheld: figure(r, 'complaints-resolved:upheld'),
      referred: figure(r, 'complaints-referred:AFCA'),
      open: figure(r, 'complaints-open'),
    }).toEqual({
      served,
      requests: count('DATA_COLLECTION_COMPLETED'),
      granted: count('GRANTED'),
      extended: count('EXTENDED'),
      withdrawn: count('REVOKED'),
      byStaff: 0,
      expired: count('EXPIRED'),
      received: 3,
      privacy: 1,
      resolved: 1,
      upheld: 1,
      referred: 1,
      open: 2,
    });
    for (const f of r.figures) expect(f.how, f.key).toMatch(/\w{3,}/);
    expect(r.figures.find((f: any) => f.key === 'granted').records).toEqual({ screen: 'events', types: ['GRANTED'] });
  });

  it('is signed off only once answered, at the version read; archived with its hash in the audit log, it changes no more', async () => {
    const r = await ok('biannual:get', { period: '2026-H1' });
    const early = await refused('biannual:signOff', { period: '2026-H1', version: r.version });
    expect(early.code).toBe('INVALID_INPUT');
    expect(early.message).toBe(
      'It cannot be signed off yet: Accredited person’s name is not answered. Accreditation number is not answered. CDR complaints received outside this register is not answered.',
    );
    const answered = await ok('biannual:answer', {
      period: '2026-H1',
      version: r.version,
      answers: { entityName: ' Acme Data Pty Ltd ', accreditationNumber: 'ADRBNK000123', complaintsElsewhere: 'None', otherMatters: '' },
    });
    expect(answered.answers).toEqual({ entityName: 'Acme Data Pty Ltd', accreditationNumber: 'ADRBNK000123', complaintsElsewhere: 'None' });
    expect((await refused('biannual:answer', { period: '2026-H1', version: r.version, answers: {} })).code).toBe('CONFLICT');

    const signed = await ok('biannual:signOff', { period: '2026-H1', version: answered.version });
    expect(signed).toMatchObject({ state: 'signed', intact: true, signedAt: AFTER_END.toISOString() });
    expect(signed.sha256).toMatch(/^[0-9a-f]{64}$/);
    const audit = (await ok('audit:query', { filter: { action: 'rule94:signoff' }, offset: 0, limit: 10 })).rows;
    expect(audit.map((e: any) => e.result)).toEqual([
      `Rule 9.4 report for 1 Jan 2026 – 30 Jun 2026 signed off and archived: sha256 ${signed.sha256}`,
    ]);
    const again = await refused('biannual:answer', { period: '2026-H1', version: signed.version, answers: {} });
    expect(again).toMatchObject({ code: 'CONFLICT', message: expect.stringMatching(/signed off by .* it is archived and cannot change/) });
    expect((await refused('biannual:recount', { period: '2026-H1', version: signed.version })).code).toBe('CONFLICT');
    expect((await refused('biannual:signOff', { period: '2026-H1', version: signed.version })).code).toBe('CONFLICT');
  });

  it('exports the signed report as printable HTML and as CSV, its figures, answers and hash in each', async () => {
    const signed = await ok('biannual:get', { period: '2026-H1' });
    for (const format of ['html', 'csv'] as const) {
      const { jobId } = await ok('biannual:export', { period: '2026-H1', format });
      await expect.poll(async () => (await ok('jobs:list', {})).find((j: any) => j.jobId === jobId)?.state).toBe('finished');
      const path = (await ok('jobs:list', {})).find((j: any) => j.jobId === jobId).result.path;
      expect(path).toMatch(new RegExp(`cdr-rule-9\\.4-report-2026-H1-signed\\.${format}$`));
      const text = readFileSync(path, 'utf8');
      expect(text).toContain(signed.sha256);
      expect(text).toContain('Acme Data Pty Ltd');
      expect(text).toContain('1 Jan 2026 – 30 Jun 2026');
      expect(text).toContain(String(figure(signed, 'granted')));
      if (format === 'html') expect(text).not.toMatch(/<script|https?:\/\//);
    }
  });

  it('the reminder fires while the last half-year’s report waits for sign-off, within its 30 days, and resolves once it is signed', async () => {
    const reminders = async () => (await ok('alerts:list', {})).alerts.filter((a: any) => a.ruleId === 'rule94-reminder');
    await ok('alerts:evaluate', {});
    // 2026-H1's reminder fired on 1 July, before its report was signed; it is signed now.
    expect((await reminders()).map((a: any) => a.state)).toEqual(['resolved']);
    // 2 January 2027 in Sydney: reminded at once; the report is made at the next sync.
    now = new Date('2027-01-01T23:00:00.000Z');
    await ok('alerts:evaluate', {});
    expect((await reminders())[0]).toMatchObject({
      state: 'firing',
      summary:
        'The rule 9.4 report for 1 Jul 2026 – 31 Dec 2026 waits for a sync before it is made, then for sign-off: due 2027-01-30 (28 days left)',
    });
    await host.core().sync();
    await ok('alerts:evaluate', {});
    const [firing] = await reminders();
    expect(firing).toMatchObject({
      state: 'firing',
      title: 'Rule 9.4 report waiting for sign-off',
      summary: 'The rule 9.4 report for 1 Jul 2026 – 31 Dec 2026 waits for sign-off: due 2027-01-30 (28 days left)',
    });
    expect((await ok('biannual:get', { period: '2026-H2' })).madeBy).toBe('CDR Console (reports)');
    const draft = await ok('biannual:answer', {
      period: '2026-H2',
      version: 1,
      answers: { entityName: 'Acme Data Pty Ltd', accreditationNumber: 'ADRBNK000123', complaintsElsewhere: 'None' },
    });
    await ok('biannual:signOff', { period: '2026-H2', version: draft.version });
    await ok('alerts:evaluate', {});
    expect((await reminders()).map((a: any) => a.state)).toEqual(['resolved', 'resolved']);
    // An older half-year the schedule never made is prepared by hand.
    expect(await ok('biannual:prepare', { period: '2025-H1' })).toMatchObject({
      state: 'draft',
      madeBy: expect.not.stringMatching(/CDR Console/),
    });
  });
});
