import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCore, type Core } from '../../electron/core/console-core.js';
import { Downloads } from '../../electron/host/downloads.js';
import { startBrowserHost } from '../../electron/host/server.js';
import { World } from '../../electron/sandbox/world.js';
import { ipcClient } from '../helpers/ipc.js';
import { tempDir } from '../helpers/temp.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- envelopes are read as loose JSON */

/**
 * The core behind the consent screens, through the router as the renderer calls it, against the
 * embedded sandbox over real HTTP and a real SQLite file: filters and facets, jobs, exports, the
 * evidence pack, settings, creation and authorisation with the simulated data holder.
 */
const quiet = { info() {}, error() {} };
let core: Core;
let dataDir: string;
const { ok, raw } = ipcClient(() => core);
const sort = { field: 'created', direction: 'desc' } as const;

async function jobEnd(jobId: string, states = ['finished', 'failed', 'cancelled']): Promise<any> {
  let job: any;
  await expect
    .poll(
      async () => {
        job = (await ok('jobs:list', {})).find((j: any) => j.jobId === jobId);
        return states.includes(job?.state);
      },
      { timeout: 20_000, interval: 50 },
    )
    .toBe(true);
  return job;
}
const activeIds = async (n: number, offset = 0) =>
  (await ok('consents:list', { filter: { statuses: ['ACTIVE'] }, sort, offset, limit: n })).rows.map((r: any) => r.consentId);

beforeAll(async () => {
  dataDir = tempDir();
  core = await startCore({ dataDir, host: 'browser', appVersion: 'test', log: quiet, sandbox: { seed: 61, consents: 300 } });
  await core.sync();
  await ok('operator:set', { displayName: 'Ivy Integration' });
});
afterAll(() => core?.close());

describe('the consent list', () => {
  it('filters by every part, counts per status for the chips, and offers each filter its values', async () => {
    const options = await ok('consents:options', {});
    expect(options.dataHolders.length).toBeGreaterThan(3);
    expect(options.accessFrequencies.map((a: any) => a.value)).toEqual(['ONCE_OFF', 'ONGOING']);
    const holder = options.dataHolders[0];
    const all = await ok('consents:count', { filter: { dataHolderBrandIds: [holder.id] } });
    expect(all.total).toBe(holder.count);
    expect(all.statuses.reduce((n: number, s: any) => n + s.count, 0)).toBe(holder.count);
    // The status chips count what each status would add, whatever statuses are chosen.
    const active = await ok('consents:count', { filter: { dataHolderBrandIds: [holder.id], statuses: ['ACTIVE'] } });
    expect(active.statuses).toEqual(all.statuses);
    expect(active.total).toBe(all.statuses.find((s: any) => s.status === 'ACTIVE')?.count ?? 0);

    const filter = {
      statuses: ['ACTIVE', 'EXPIRED'],
      accessFrequencies: ['ONGOING'],
      directMarketing: true,
      created: { from: '2026-01-01T00:00:00Z' },
    };
    const { total } = await ok('consents:count', { filter });
    const rows: any[] = [];
    for (let offset = 0; offset < total; offset += 50) rows.push(...(await ok('consents:list', { filter, sort, offset, limit: 50 })).rows);
    expect(rows).toHaveLength(total);
    expect(total).toBeGreaterThan(0);
    for (const r of rows) {
      expect(['ACTIVE', 'EXPIRED']).toContain(r.status);
      expect(r.accessFrequency).toBe('ONGOING');
      expect(r.directMarketingAllowed).toBe(true);
      expect(r.created >= '2026-01-01T00:00:00.000Z').toBe(true);
    }
    const ids = await ok('consents:ids', { filter, sort, limit: 10_000 });
    expect(ids).toEqual({ ids: rows.map((r) => r.consentId), total });
    const revoked = await ok('consents:list', {
      filter: { revoked: { from: '2020-01-01T00:00:00Z', to: '2100-01-01T00:00:00Z' } },
      sort,
      offset: 0,
      limit: 500,
    });
    expect(revoked.rows.every((r: any) => r.revoked !== null)).toBe(true);
  });

  it('finds a consent by consumer id and by a mobile number typed the local way', async () => {
    const [one] = (await ok('consents:list', { filter: { statuses: ['ACTIVE'] }, sort, offset: 0, limit: 1 })).rows;
    const byConsumer = await ok('consents:list', { filter: { search: one.consumerId }, sort, offset: 0, limit: 50 });
    expect(byConsumer.rows.map((r: any) => r.consentId)).toContain(one.consentId);
    const local = `0${one.consumerMobile.slice(3, 6)} ${one.consumerMobile.slice(6, 9)} ${one.consumerMobile.slice(9)}`;
    const byMobile = await ok('consents:list', { filter: { search: local }, sort, offset: 0, limit: 50 });
    expect(byMobile.rows.map((r: any) => r.consentId)).toContain(one.consentId);
  });

  it('tells known ids from unknown ones', async () => {
    const [a, b] = await activeIds(2);
    expect(await ok('consents:resolve', { consentIds: [a, 'no-such-consent', b] })).toEqual({
      known: [
        { consentId: a, status: 'ACTIVE' },
        { consentId: b, status: 'ACTIVE' },
      ],
      unknown: ['no-such-consent'],
    });
  });
});

describe('exports and the evidence pack', () => {
  it('exports every row of a filtered view as CSV and JSON, and audits each export', async () => {
    const filter = { statuses: ['EXPIRED'] };
    const { total } = await ok('consents:count', { filter });
    const started = await ok('consents:export', { filter, sort, columns: ['consentId', 'status', 'consumerMobile'], format: 'csv' });
    const job = await jobEnd(started.jobId);
    expect(job).toMatchObject({ state: 'finished', kind: 'export-consents', result: { rows: total } });
    const csv = readFileSync(job.result.path, 'utf8');
    expect(createHash('sha256').update(csv).digest('hex')).toBe(job.result.sha256);
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe('"Consent id","Status","Consumer mobile"');
    expect(lines).toHaveLength(total + 1);
    // Phone numbers stay as they are: only what a spreadsheet would run as a formula is neutralised.
    expect(lines[1]).toMatch(/^"[0-9a-f-]{36}","EXPIRED","\+61\d{9}"$/);
    expect((statSync(job.result.path).mode & 0o777).toString(8)).toBe('600');

    const json = await jobEnd((await ok('consents:export', { filter, sort, columns: ['consentId', 'status'], format: 'json' })).jobId);
    const parsed = JSON.parse(readFileSync(json.result.path, 'utf8'));
    expect(parsed).toHaveLength(total);
    expect(parsed[0]).toEqual({ consentId: expect.any(String), status: 'EXPIRED' });
    const audit = (await ok('audit:list', { limit: 500 })).filter((e: any) => e.action === 'export-consents');
    expect(audit.at(-2).result).toMatch(new RegExp(`^${total} consents exported as CSV .*"statuses":\\["EXPIRED"\\]`));
    expect(audit.at(-1).result).toMatch(new RegExp(`^${total} consents exported as JSON`));
  });

  it('announces what an action stored: a revoke its consent, its events and its audit entry; a refused one its audit entry', async () => {
    const heard: { entity: string; count: number }[] = [];
    const stop = core.events.subscribe((event, payload) => {
      if (event === 'cache:changed') heard.push(payload as { entity: string; count: number });
    });
    try {
      const [id] = await activeIds(1, 9);
      await ok('consents:revoke', { consentId: id, reason: 'Consumer asked: notices test' });
      const entities = heard.map((h) => h.entity);
      expect(entities).toEqual(expect.arrayContaining(['consents', 'events', 'audit']));
      expect(heard.find((h) => h.entity === 'events')!.count).toBeGreaterThan(0);
      heard.length = 0;
      // Refused by the intermediary (an unknown consent): nothing changed but the audit log, which says so.
      const refused = await raw('consents:revoke', { consentId: 'no-such-consent-at-all', reason: 'Consumer asked: notices test' });
      expect(refused.ok).toBe(false);
      expect(heard).toEqual([{ entity: 'audit', count: 1 }]);
    } finally {
      stop();
    }
  });

  it('packs a consent for an auditor: every version, events, staff actions with the chain check, a manifest of hashes', async () => {
    const [id] = await activeIds(1, 5);
    await ok('consents:update', { consentId: id, change: { externalId: 'PACK-1' }, reason: 'CRM merge' });
    await ok('consents:revoke', { consentId: id, reason: 'Consumer complaint: evidence test' });
    const job = await jobEnd((await ok('evidence:export', { consentId: id })).jobId);
    expect(job.state).toBe('finished');
    const zip = unzipSync(readFileSync(job.result.path));
    expect(createHash('sha256').update(readFileSync(job.result.path)).digest('hex')).toBe(job.result.sha256);
    const manifest = JSON.parse(strFromU8(zip['manifest.json']!));
    expect(manifest).toMatchObject({
      format: 'cdr-console-evidence/1',
      consentId: id,
      generatedBy: expect.stringContaining('Ivy Integration'),
    });
    for (const f of manifest.files) expect(createHash('sha256').update(zip[f.name]!).digest('hex')).toBe(f.sha256);
    const versions = Object.keys(zip).filter((n) => n.startsWith('versions/'));
    expect(versions).toHaveLength(3);
    expect(JSON.parse(strFromU8(zip[versions.at(-1)!]!))).toMatchObject({ consentId: id, status: 'REVOKED', externalId: 'PACK-1' });
    const staff = JSON.parse(strFromU8(zip['staff-actions.json']!));
    expect(staff.map((a: any) => a.action)).toEqual(['update', 'revoke']);
    expect(JSON.parse(strFromU8(zip['events.json']!)).some((e: any) => e.eventType === 'REVOKED')).toBe(true);
    const html = strFromU8(zip['summary.html']!);
    expect(html).toContain('Audit chain verified');
    expect(html).toMatch(/externalId: [^<]* → PACK-1/);
    expect(html).not.toMatch(/<script/i);
    const detail = await ok('consents:get', { consentId: id });
    expect(detail.audit.at(-1)).toMatchObject({ action: 'evidence-pack', result: expect.stringContaining(job.result.sha256) });
  });

  it('offers an export once for download in the browser host, to this session only, then deletes it', async () => {
    const downloads = new Downloads(join(dataDir, 'downloads-test'));
    const host = await startBrowserHost({ router: core.router, events: core.events, staticDir: join(dataDir, 'none'), downloads });
    try {
      const target = (await downloads.sink().open('x.csv'))!;
      const { writeFileSync } = await import('node:fs');
      writeFileSync(target.path, 'a,b\r\n');
      const { download } = await target.deliver();
      const url = `${host.url.replace(/\/$/, '')}${download!.url}`;
      expect((await fetch(url)).status).toBe(401); // no session cookie
      const headers = { cookie: `cdr_console_session=${host.token}` };
      const res = await fetch(url, { headers });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toBe('attachment; filename="x.csv"');
      expect(await res.text()).toBe('a,b\r\n');
      await expect.poll(() => existsSync(target.path)).toBe(false);
      expect((await fetch(url, { headers })).status).toBe(404); // once
    } finally {
      downloads.close();
      await host.close();
    }
  });
});

describe('bulk revocation as a job', () => {
  it('answers at once; pause holds it, the rate can change, resume finishes it; cancel stops one', async () => {
    const ids = await activeIds(6, 20);
    const { jobId } = await ok('bulk:revoke', { consentIds: ids, reason: 'Incident 7', perSecond: 2 });
    expect(typeof jobId).toBe('string');
    await ok('jobs:control', { jobId, action: 'pause' });
    await jobEnd(jobId, ['paused']);
    await new Promise((r) => setTimeout(r, 700)); // the revocation in flight when paused completes
    const doneWhenPaused = (await jobEnd(jobId, ['paused'])).done;
    await new Promise((r) => setTimeout(r, 1500)); // at 2 a second, three more would have gone
    expect((await jobEnd(jobId, ['paused'])).done).toBe(doneWhenPaused);
    expect(doneWhenPaused).toBeLessThan(6);
    await ok('jobs:control', { jobId, action: 'rate', perSecond: 50 });
    await ok('jobs:control', { jobId, action: 'resume' });
    const done = await jobEnd(jobId);
    expect(done).toMatchObject({ state: 'finished', done: 6, total: 6, counts: { revoked: 6, pending: 0 }, perSecond: 50 });
    const { items } = await ok('jobs:items', { jobId, offset: 0, limit: 10 });
    expect(items.map((i: any) => i.status)).toEqual(Array(6).fill('revoked'));

    const more = await activeIds(10, 20);
    const second = (await ok('bulk:revoke', { consentIds: more, reason: 'Incident 8', perSecond: 1 })).jobId;
    await ok('jobs:control', { jobId: second, action: 'cancel' });
    const cancelled = await jobEnd(second);
    expect(cancelled.state).toBe('cancelled');
    expect(cancelled.counts.pending).toBeGreaterThan(5);
    expect((await raw('jobs:control', { jobId: second, action: 'pause' })).error.code).toBe('INVALID_INPUT');
  });

  it('a job interrupted by a restart is listed as interrupted and resumes where it stopped', async () => {
    const ids = await activeIds(4, 40);
    const { jobId } = await ok('bulk:revoke', { consentIds: ids, reason: 'Incident 9', perSecond: 0.5 });
    await expect.poll(async () => (await ok('jobs:list', {})).find((j: any) => j.jobId === jobId).done, { timeout: 10_000 }).toBe(1);
    await core.close();
    core = await startCore({ dataDir, host: 'browser', appVersion: 'test', log: quiet, sandbox: { seed: 61, consents: 300 } });
    const listed = (await ok('jobs:list', {})).find((j: any) => j.jobId === jobId);
    expect(listed).toMatchObject({ state: 'interrupted', kind: 'bulk-revoke', total: 4, counts: { revoked: 1, pending: 3 } });
    await ok('jobs:control', { jobId, action: 'resume', perSecond: 50 });
    expect(await jobEnd(jobId)).toMatchObject({ state: 'finished', counts: { revoked: 4, pending: 0 } });
  });

  it('exports its results and audits that', async () => {
    const [job] = (await ok('jobs:list', {})).filter((j: any) => j.kind === 'bulk-revoke' && j.state === 'finished');
    const exported = await jobEnd((await ok('jobs:export', { jobId: job.jobId, format: 'csv' })).jobId);
    const lines = readFileSync(exported.result.path, 'utf8').trimEnd().split('\r\n');
    expect(lines[0]).toBe('"#","Consent id","Outcome","Detail"');
    expect(lines).toHaveLength(job.total + 1);
  });
});

describe('creating and authorising a consent, and extending one', () => {
  it('creates a REQUESTED consent, authorises it with the simulated data holder, and it becomes ACTIVE', async () => {
    const { useCases } = await ok('reference:list', {});
    const useCase = useCases.find((u: any) => u.accessFrequency === 'ONGOING' && u.dataHolders?.length);
    const created = await ok('consents:create', {
      useCaseId: useCase.id,
      dataHolderBrandId: useCase.dataHolders[0].dataHolderBrandId,
      sharingEndDate: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      consumerEmail: 'new.person@example.com',
      externalId: 'NEW-1',
    });
    expect(created).toMatchObject({ status: 'REQUESTED', externalId: 'NEW-1' });
    const start = await ok('authorization:start', { consentId: created.consentId });
    expect(start.uri).toContain('/__dataholder/authorize');
    const { response } = await ok('sandbox:approve', { uri: start.uri });
    const decoded = await ok('authorization:decode', { response, consentId: created.consentId });
    expect(decoded).toMatchObject({ problems: [], claims: { state: start.state, code: expect.any(String) } });
    const done = await ok('authorization:complete', { consentId: created.consentId, response });
    expect(done.status).toBe('ACTIVE');
    const detail = await ok('consents:get', { consentId: created.consentId });
    expect(detail.events.map((e: any) => e.eventType)).toContain('GRANTED'); // at once, not after a sync
    expect(detail.audit.map((a: any) => a.action)).toEqual(['create', 'start-authorization', 'complete-authorization']);
  });

  it('says what is wrong with a response before it is sent: another consent, a state it never issued', async () => {
    const [a, b] = (
      await ok('consents:list', { filter: { statuses: ['ACTIVE'], accessFrequencies: ['ONGOING'] }, sort, offset: 0, limit: 2 })
    ).rows.map((r: any) => r.consentId);
    const later = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString();
    const forA = await ok('authorization:start', { consentId: a, sharingEndDate: later(400) });
    const { response } = await ok('sandbox:approve', { uri: forA.uri });
    expect((await ok('authorization:decode', { response, consentId: b })).problems).toEqual([
      `It answers the authorization of another consent (${a}).`,
    ]);
    const foreign = await (
      await fetch(`${core.sandboxUrl}/__sandbox/dataholder/sign`, {
        method: 'POST',
        body: JSON.stringify({ claims: { code: 'x', state: 'forged' } }),
      })
    ).json();
    expect((await ok('authorization:decode', { response: foreign.jwt, consentId: a })).problems).toContain(
      'Its state does not match an authorization started from this console (state mismatch).',
    );
    expect((await raw('authorization:complete', { consentId: b, response })).error.message).toMatch(/another consent/);
    const extended = await ok('authorization:complete', { consentId: a, response });
    expect(Date.parse(extended.sharingEndDate)).toBeGreaterThan(Date.now() + 399 * 86_400_000);
  });

  it('refuses simulated approval for an address that is not the embedded data holder', async () => {
    expect(await raw('sandbox:approve', { uri: 'https://bank.example/authorize' })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT' },
    });
  });
});

describe('settings and the embedded sandbox clock', () => {
  it('keeps the theme, columns and saved views across restarts', async () => {
    await ok('settings:set', { theme: 'dark', consentColumns: ['status', 'externalId'] });
    await ok('settings:set', {
      savedViews: [
        { name: 'Expiring', filter: { statuses: ['ACTIVE'], sharingEnd: { to: '2027-01-01T00:00:00Z' } }, sort, columns: ['status'] },
      ],
    });
    expect((await raw('settings:set', { theme: 'neon' })).error.code).toBe('INVALID_INPUT');
    await core.close();
    core = await startCore({ dataDir, host: 'browser', appVersion: 'test', log: quiet, sandbox: { seed: 61, consents: 300 } });
    expect(await ok('settings:get', {})).toMatchObject({
      theme: 'dark',
      consentColumns: ['status', 'externalId'],
      savedViews: [{ name: 'Expiring' }],
    });
  });

  it('follows real time from a new state file, and keeps its origin across restarts', () => {
    const file = join(tempDir(), 'state.json');
    const before = Date.now();
    const world = new World({ seed: 3, consents: 10, realTime: true, stateFile: file });
    expect(world.now()).toBeGreaterThanOrEqual(before - 1);
    expect(world.now()).toBeLessThanOrEqual(Date.now() + 1);
    const origin = JSON.parse(readFileSync(file, 'utf8')).clockOrigin;
    expect(Date.parse(origin)).toBeLessThanOrEqual(before);
    const again = new World({ seed: 3, consents: 10, realTime: true, stateFile: file });
    expect(again.gen.at(4)).toEqual(world.gen.at(4)); // the same seeded data tomorrow
    // A pinned clock stands still.
    const pinned = new World({ seed: 3, consents: 10, clockOrigin: '2026-11-01T00:00:00Z' });
    expect(new Date(pinned.now()).toISOString()).toBe('2026-11-01T00:00:00.000Z');
  });
});
