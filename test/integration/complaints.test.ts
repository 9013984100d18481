import { strFromU8, unzipSync } from 'fflate';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCoreHost, type CoreHost } from '../../electron/core/core-host.js';
import { dayOfInstant, zonedDateTime } from '../../shared/time/zone.js';
import { tempDir } from '../helpers/temp.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- envelopes are read as loose JSON */

/**
 * The complaints register through the router (issue 38), on a real SQLite cache synced from the
 * embedded sandbox: recorded against a consent and its consumer, numbered, checked, audited, changed
 * at its version (a stale change refused), announced to the consoles, exported in the person's zone,
 * in the consent's evidence pack, and still there after a restart.
 */
const quiet = { info() {}, error() {} };
let host: CoreHost;
let dataDir: string;
const opts = () => ({
  dataDir,
  host: 'browser' as const,
  appVersion: 'test',
  log: quiet,
  sandbox: { seed: 7, consents: 30, clockOrigin: '2026-11-01T00:00:00Z' },
});
const call = async (channel: string, input: unknown): Promise<any> => host.router.handle(channel, input, true);
const ok = async (channel: string, input: unknown): Promise<any> => {
  const e = await call(channel, input);
  if (!e.ok) throw new Error(`${channel}: ${e.error.code} ${e.error.message}`);
  return e.value;
};
const finished = async (jobId: string): Promise<string> => {
  await expect.poll(async () => (await ok('jobs:list', {})).find((j: any) => j.jobId === jobId)?.state).toBe('finished');
  return (await ok('jobs:list', {})).find((j: any) => j.jobId === jobId).result.path;
};
const complaint = (over: Record<string, unknown> = {}) => ({
  receivedOn: '2026-11-03',
  channel: 'phone',
  category: 'withdrawal',
  description: '  Withdrew consent in the app; still listed as sharing.  ',
  consentId: null,
  consumerId: null,
  outcome: null,
  resolvedOn: null,
  referredTo: null,
  ...over,
});
let consent: { consentId: string; consumerId: string };

beforeAll(async () => {
  dataDir = tempDir();
  host = await startCoreHost(opts());
  await host.core().sync();
  const row = (await ok('consents:list', { filter: {}, sort: { field: 'created', direction: 'desc' }, offset: 0, limit: 1 })).rows[0];
  consent = { consentId: row.consentId, consumerId: row.consumerId };
});
afterAll(async () => host?.close());

describe('the complaints register', () => {
  it('records a complaint against a consent and its consumer: numbered, trimmed, audited on the consent, announced', async () => {
    const changed: string[] = [];
    const off = host.events.subscribe((event, payload: any) => event === 'cache:changed' && changed.push(payload.entity));
    const first = await ok('complaints:record', complaint({ ...consent }));
    const second = await ok('complaints:record', complaint({ consumerId: 'someone-else', category: 'privacy', channel: 'email' }));
    off();
    expect(first).toMatchObject({
      number: 1,
      status: 'open',
      version: 1,
      description: 'Withdrew consent in the app; still listed as sharing.',
      ...consent,
    });
    expect(Date.now() - Date.parse(first.createdAt)).toBeLessThan(60_000);
    expect(second.number).toBe(2);
    expect(changed.filter((e) => e === 'complaints')).toHaveLength(2);
    expect(changed).toContain('audit');

    const listed = await ok('complaints:list', { consentId: consent.consentId });
    expect(listed.rows.map((c: any) => c.id)).toEqual([first.id]);
    expect((await ok('complaints:list', { consumerId: 'someone-else' })).total).toBe(1);
    // The consent's timeline holds the entry: its target is the consent, its result names the complaint.
    const detail = await ok('consents:get', { consentId: consent.consentId });
    expect(detail.audit.at(-1)).toMatchObject({
      action: 'complaint:record',
      target: consent.consentId,
      result: `CMP-0001 (consumer ${consent.consumerId}) recorded: Withdrawing consent, received 2026-11-03 by phone`,
    });
    expect((await ok('audit:verify', {})).ok).toBe(true);
  });

  it('refuses a complaint that breaks the rules, saying which and why, and records nothing', async () => {
    const before = (await ok('complaints:list', {})).total;
    const start = dayOfInstant(Date.now(), 'Australia/Sydney');
    const sydney = { today: start.day, tomorrow: dayOfInstant(start.start + 36 * 3600_000, 'Australia/Sydney').day };
    const refusals = [
      [complaint(), /Name the consent or the consumer/],
      [complaint({ consumerId: 'x', description: '   ' }), /Say what the complaint is about/],
      [
        complaint({ consumerId: 'x', outcome: 'upheld', resolvedOn: '2026-11-01' }),
        /cannot be resolved \(2026-11-01\) before it was received \(2026-11-03\)/,
      ],
      [complaint({ consumerId: 'x', outcome: 'upheld' }), /needs the day it was resolved/],
      // Tomorrow in Sydney is after today there.
      [
        { ...complaint({ consumerId: 'x', receivedOn: sydney.tomorrow }), timeZone: 'Australia/Sydney' },
        new RegExp(`The day received \\(${sydney.tomorrow}\\) is after today \\(${sydney.today}\\)`),
      ],
      [complaint({ consumerId: 'x', channel: 'carrier-pigeon' }), /channel/],
    ] as const;
    for (const [input, message] of refusals) {
      const e = await call('complaints:record', input);
      expect(e.ok, JSON.stringify(input)).toBe(false);
      expect(e.error.code).toBe('INVALID_INPUT');
      expect(e.error.message).toMatch(message);
    }
    // Today in Auckland, the first zone to reach a day, is allowed (it may be tomorrow where the host is).
    const auckland = dayOfInstant(Date.now(), 'Pacific/Auckland').day;
    expect(
      (await call('complaints:record', { ...complaint({ consumerId: 'x', receivedOn: auckland }), timeZone: 'Pacific/Auckland' })).ok,
    ).toBe(true);
    expect((await ok('complaints:list', {})).total).toBe(before + 1);
  });

  it('changes a complaint at its version, audits what changed, and refuses a stale copy without overwriting', async () => {
    const [c] = (await ok('complaints:list', { consentId: consent.consentId })).rows;
    const resolved = await ok('complaints:update', {
      ...complaint({ ...consent }),
      id: c.id,
      version: c.version,
      outcome: 'upheld',
      resolvedOn: '2026-11-07',
      referredTo: 'AFCA',
    });
    expect(resolved).toMatchObject({ version: 2, status: 'resolved', outcome: 'upheld', referredTo: 'AFCA', number: 1 });
    const detail = await ok('consents:get', { consentId: consent.consentId });
    expect(detail.audit.at(-1)).toMatchObject({
      action: 'complaint:update',
      result: `CMP-0001 (consumer ${consent.consumerId}) changed: outcome: – → Upheld; resolved on: – → 2026-11-07; referred to: – → AFCA`,
    });
    // A second console still holding version 1.
    const stale = await call('complaints:update', { ...complaint({ ...consent, description: 'mine' }), id: c.id, version: 1 });
    expect(stale.ok).toBe(false);
    expect(stale.error.code).toBe('CONFLICT');
    expect(stale.error.message).toMatch(/^CMP-0001 was changed by .+ since you opened it: nothing was saved/);
    expect((await ok('complaints:list', { consentId: consent.consentId })).rows[0]).toMatchObject({ version: 2, outcome: 'upheld' });
    const missing = await call('complaints:update', {
      ...complaint({ ...consent }),
      id: '0b6b1a52-3c1e-4c55-9a0e-0d3f1c2b4a11',
      version: 1,
    });
    expect(missing.error.code).toBe('NOT_FOUND');
    expect((await ok('complaints:list', { status: 'resolved' })).total).toBe(1);
    expect((await ok('complaints:list', { status: 'open', category: 'privacy' })).total).toBe(1);
  });

  it('exports the register in the person’s zone, and the consent’s evidence pack holds its complaints', async () => {
    const zone = 'Pacific/Auckland';
    const csv = readFileSync(await finished((await ok('complaints:export', { format: 'csv', timeZone: zone })).jobId), 'utf8');
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      `"Reference","Received on","Channel","Category","Description","Consent id","Consumer id","Status","Outcome","Resolved on","Referred to","Recorded by","Recorded at (UTC)","Last changed by","Last changed at (UTC)","Recorded at (${zone})","Last changed at (${zone})"`,
    );
    expect(lines).toHaveLength(1 + 3);
    const cmp1 = lines.find((l) => l.startsWith('"CMP-0001"'))!;
    expect(cmp1).toContain(
      `"Withdrawing consent","Withdrew consent in the app; still listed as sharing.","${consent.consentId}","${consent.consumerId}","Resolved","Upheld","2026-11-07","AFCA"`,
    );
    const saved = (await ok('complaints:list', { consentId: consent.consentId })).rows[0];
    expect(cmp1.endsWith(`"${zonedDateTime(saved.createdAt, zone)}","${zonedDateTime(saved.updatedAt, zone)}"`)).toBe(true);
    const json = JSON.parse(
      readFileSync(await finished((await ok('complaints:export', { format: 'json', status: 'open' })).jobId), 'utf8'),
    );
    expect(json.rows.map((c: any) => c.number).sort()).toEqual([2, 3]);

    const pack = unzipSync(readFileSync(await finished((await ok('evidence:export', { consentId: consent.consentId })).jobId)));
    const manifest = JSON.parse(strFromU8(pack['manifest.json']!));
    expect(manifest.files.map((f: any) => f.name)).toContain('complaints.json');
    expect(JSON.parse(strFromU8(pack['complaints.json']!))).toMatchObject([{ number: 1, outcome: 'upheld', version: 2 }]);
    const html = strFromU8(pack['summary.html']!);
    expect(html).toContain('<h2>Complaints (1)</h2>');
    expect(html).toContain('<td>CMP-0001</td>');
  });

  it('keeps the register in the profile’s encrypted cache across a restart', async () => {
    const before = await ok('complaints:list', {});
    await host.close();
    host = await startCoreHost(opts());
    const after = await ok('complaints:list', {});
    expect(after).toEqual(before);
    expect(after.total).toBe(3);
  });
});
