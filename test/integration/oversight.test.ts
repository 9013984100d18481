import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns';
import { strFromU8, unzipSync } from 'fflate';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCoreHost, type CoreHost } from '../../electron/core/core-host.js';
import { maskMessage } from '../../electron/core/events/mask.js';
import { startSandbox, type RunningSandbox } from '../../electron/sandbox/server.js';
import { tempDir } from '../helpers/temp.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- envelopes are read as loose JSON */

/**
 * The core behind the oversight screens, through the router: events and their per-day counts,
 * webhook failures grouped, the compliance report, the audit log's filters and export, and profiles
 * managed from Settings — saved with a write-only secret, tested, switched to, removed.
 */
const quiet = { info() {}, error() {} };
let host: CoreHost;
let dataDir: string;
let other: RunningSandbox;
const responses: string[] = [];
const call = async (channel: string, input: unknown): Promise<any> => {
  const envelope = (await host.router.handle(channel, input, true)) as any;
  responses.push(JSON.stringify(envelope));
  return envelope;
};
const ok = async (channel: string, input: unknown): Promise<any> => {
  const e = await call(channel, input);
  if (!e.ok) throw new Error(`${channel}: ${e.error.code} ${e.error.message}`);
  return e.value;
};
const SECRET = 'Other-Intermediary-Secret-42';

beforeAll(async () => {
  dataDir = tempDir();
  other = await startSandbox({ seed: 9, consents: 40, clientId: 'other-client', clientSecret: SECRET });
  host = await startCoreHost({
    dataDir,
    host: 'browser',
    appVersion: 'test',
    log: quiet,
    sandbox: { seed: 83, consents: 250, clockOrigin: '2026-11-01T00:00:00Z' },
  });
  await host.core().sync();
});
afterAll(async () => {
  await host?.close();
  await other?.close();
});

describe('events and webhook failures', () => {
  it('lists events newest first with counts per type and per day that add up', async () => {
    const all = await ok('events:count', { filter: {} });
    expect(all.total).toBe(all.types.reduce((n: number, t: any) => n + t.count, 0));
    const granted = await ok('events:count', { filter: { types: ['GRANTED'] } });
    expect(granted.types).toEqual(all.types); // the type chips count the rest of the filter
    expect(granted.total).toBe(all.types.find((t: any) => t.type === 'GRANTED').count);
    const page = await ok('events:list', { filter: { types: ['GRANTED', 'REVOKED'] }, offset: 0, limit: 200 });
    const times = page.rows.map((r: any) => r.timestamp);
    expect(times).toEqual([...times].sort().reverse());
    expect(page.rows.every((r: any) => ['GRANTED', 'REVOKED'].includes(r.eventType) && r.consumerEmail)).toBe(true);
    const days = await ok('events:days', { filter: {}, days: 400 });
    expect(days.reduce((n: number, d: any) => n + d.total, 0)).toBe(all.total);
    const from = `${days[2].day}T00:00:00`;
    const window = await ok('events:count', { filter: { from: new Date(from).toISOString() } });
    expect(window.total).toBe(days.slice(0, 3).reduce((n: number, d: any) => n + d.total, 0));
  });

  it('groups webhook failures by the masked response, with counts that add up and the consents affected', async () => {
    const summary = await ok('webhooks:summary', { filter: {} });
    const failures = await ok('events:count', {
      filter: { types: ['WEBHOOK_SENDING_FAILED', 'WEBHOOK_SENDING_FAILED_CLIENT_ERROR', 'WEBHOOK_MAX_RETRIES_REACHED'] },
    });
    expect(summary.byMessage.reduce((n: number, g: any) => n + g.count, 0)).toBe(failures.total);
    const requestIds = summary.byMessage.filter((g: any) => g.key.includes('"requestId":"<id>"'));
    expect(requestIds).toHaveLength(1);
    expect(requestIds[0].count).toBeGreaterThan(1);
    expect(summary.consentsAffected).toBe(summary.byConsent.length);
    // Consents that exhausted the retries come first.
    const flags = summary.byConsent.map((c: any) => c.maxRetries > 0);
    expect(flags).toEqual([...flags].sort((a: boolean, b: boolean) => Number(b) - Number(a)));
  });

  it('masks what varies in a response and keeps what it says', () => {
    expect(maskMessage('Request 8f3a9c10-1b2c-4d5e-8f90-123456789abc timed out after 30012 ms at 2026-11-03T10:00:00Z')).toBe(
      'Request <id> timed out after <n> ms at <time>',
    );
    expect(maskMessage('503 Service Unavailable')).toBe('503 Service Unavailable');
    expect(maskMessage('upstream said status: 429 for jane@example.com (retry 3)')).toBe(
      'upstream said status: 429 for <email> (retry <n>)',
    );
    expect(maskMessage(null)).toBe('(no response body)');
  });
});

describe('the compliance report and the audit log', () => {
  it('counts a period from the events, staff actions from the audit log', async () => {
    const core = host.core();
    const [active] = (
      await ok('consents:list', { filter: { statuses: ['ACTIVE'] }, sort: { field: 'created', direction: 'desc' }, offset: 0, limit: 1 })
    ).rows;
    await ok('operator:set', { displayName: 'Rita Reports' });
    await ok('consents:revoke', { consentId: active.consentId, reason: 'Report test' });
    const from = new Date(Date.now() - 3_600_000).toISOString();
    const to = new Date(Date.now() + 3_600_000).toISOString();
    const report = await ok('reports:compliance', { from, to });
    const count = (key: string) => report.counts.find((c: any) => c.key === key).count;
    expect(count('withdrawn-staff')).toBe(1);
    expect(count('withdrawn')).toBe((await ok('events:count', { filter: { types: ['REVOKED'], from, to } })).total);
    const all = await ok('reports:compliance', { from: '2000-01-01T00:00:00Z', to: '2100-01-01T00:00:00Z' });
    const c = (key: string) => all.counts.find((x: any) => x.key === key).count;
    const types = (await ok('events:count', { filter: {} })).types;
    const ofType = (t: string) => types.find((x: any) => x.type === t)?.count ?? 0;
    expect([c('granted'), c('extended'), c('expired'), c('collections')]).toEqual([
      ofType('GRANTED'),
      ofType('EXTENDED'),
      ofType('EXPIRED'),
      ofType('DATA_COLLECTION_COMPLETED'),
    ]);
    expect(all.collectionsByHolder.reduce((n: number, h: any) => n + h.count, 0)).toBe(c('collections'));
    const job = (await ok('reports:export', { from, to, format: 'html' })).jobId;
    await expect.poll(async () => (await ok('jobs:list', {})).find((j: any) => j.jobId === job)?.state).toBe('finished');
    const html = readFileSync((await ok('jobs:list', {})).find((j: any) => j.jobId === job).result.path, 'utf8');
    expect(html).toMatch(/<h1>CDR compliance report: \d{1,2} [A-Z][a-z]{2} \d{4}( – \d{1,2} [A-Z][a-z]{2} \d{4})?<\/h1>/);
    expect(html).toContain('withdrawn by staff');
    expect(core).toBe(host.core());
  });

  it('a report exported for last month in Sydney, and in Perth, is named and headed with that month, each in its zone (issue 34)', async () => {
    const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
    for (const zone of ['Australia/Sydney', 'Australia/Perth']) {
      // Last month's first and last days in the zone, and the instants of their local midnights.
      const [y, m] = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit' })
        .format(new Date())
        .split('-')
        .map(Number) as [number, number];
      const [ly, lm] = m === 1 ? [y - 1, 12] : [y, m - 1];
      const from = zonedMidnight(ly, lm, 1, zone);
      const to = zonedMidnight(y, m, 1, zone);
      const lastDay = new Date(Date.UTC(y, m - 1, 0)).getUTCDate();
      const text = `1 ${months[lm - 1]} ${ly} – ${lastDay} ${months[lm - 1]} ${ly}`;
      for (const format of ['csv', 'html'] as const) {
        const job = (await ok('reports:export', { from, to, format, timeZone: zone })).jobId;
        await expect.poll(async () => (await ok('jobs:list', {})).find((j: any) => j.jobId === job)?.state).toBe('finished');
        const done = (await ok('jobs:list', {})).find((j: any) => j.jobId === job);
        expect(done.title).toBe(`Compliance report ${text} (${format.toUpperCase()})`);
        const mm = String(lm).padStart(2, '0');
        expect(done.result.path).toMatch(new RegExp(`cdr-compliance-report-${ly}-${mm}-01-${ly}-${mm}-${lastDay}\\.${format}$`));
        const file = readFileSync(done.result.path, 'utf8');
        if (format === 'html') expect(file).toContain(`<h1>CDR compliance report: ${text}</h1>`);
        else {
          expect(file).toContain(`"Period","${text}"`);
          expect(file).toContain(`"Time zone","${zone}"`);
          expect(file).toContain(`"Period from (${zone})","${ly}-${mm}-01 00:00:00"`);
          expect(file).toContain(`"Period from (UTC)","${from}"`);
        }
      }
    }
  });

  it('filters the audit log by operator, action, target and time, and exports it with the verification', async () => {
    const { operators, actions } = await ok('audit:options', {});
    expect(operators.some((o: string) => o.includes('Rita Reports'))).toBe(true);
    expect(actions).toEqual(expect.arrayContaining(['revoke', 'export-report']));
    const revokes = await ok('audit:query', { filter: { action: 'revoke' }, offset: 0, limit: 50 });
    expect(revokes.total).toBe(1);
    const target = revokes.rows[0].target;
    expect((await ok('audit:query', { filter: { target }, offset: 0, limit: 50 })).rows.map((r: any) => r.action)).toEqual(['revoke']);
    expect((await ok('audit:query', { filter: { from: '2100-01-01T00:00:00Z' }, offset: 0, limit: 50 })).total).toBe(0);
    const job = (await ok('audit:exportFile', { filter: {}, format: 'json' })).jobId;
    await expect.poll(async () => (await ok('jobs:list', {})).find((j: any) => j.jobId === job)?.state).toBe('finished');
    const exported = JSON.parse(readFileSync((await ok('jobs:list', {})).find((j: any) => j.jobId === job).result.path, 'utf8'));
    expect(exported.verification).toMatchObject({ ok: true });
    expect(exported.rows.map((r: any) => r.seq)).toEqual([...exported.rows.map((r: any) => r.seq)].sort((a, b) => a - b));
  });

  it('every export names the console’s zone and gives each time in it beside UTC, its file named in that zone (issue 34)', async () => {
    const zone = 'Pacific/Auckland';
    const inAuckland = (iso: string) => format(new TZDate(Date.parse(iso), zone), 'yyyy-MM-dd HH:mm:ss');
    const finished = async (jobId: string) => {
      await expect.poll(async () => (await ok('jobs:list', {})).find((j: any) => j.jobId === jobId)?.state).toBe('finished');
      const path: string = (await ok('jobs:list', {})).find((j: any) => j.jobId === jobId).result.path;
      // Named in Auckland's time, the zone said: "events-2026-11-29T00-40-05-Pacific-Auckland.csv".
      expect(path).toMatch(/-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-Pacific-Auckland\.(csv|json|zip)$/);
      return path;
    };
    // RFC 4180 as the exports write it: CRLF between records, a field quoted or empty.
    const csv = (text: string) =>
      text
        .replace(/\r\n$/, '')
        .split('\r\n')
        .map((line) => [...line.matchAll(/(?:^|,)(?:"((?:[^"]|"")*)"|([^,]*))/g)].map((m) => (m[1] ?? m[2] ?? '').replace(/""/g, '"')));

    // Events: the UTC column first as before, the zone's last.
    const events = csv(
      readFileSync(await finished((await ok('events:export', { filter: {}, format: 'csv', timeZone: zone })).jobId), 'utf8'),
    );
    expect(events[0]).toEqual([
      'Time (UTC)',
      'Event',
      'Consent id',
      'Consumer e-mail',
      'Data holder',
      'Detail',
      'Event id',
      `Time (${zone})`,
    ]);
    expect(events.length).toBeGreaterThan(100);
    for (const row of events.slice(1, 50)) expect(row[7]).toBe(inAuckland(row[0]!));
    const eventsJson = JSON.parse(
      readFileSync(await finished((await ok('events:export', { filter: {}, format: 'json', timeZone: zone })).jobId), 'utf8'),
    );
    expect(eventsJson.rows[0]).toMatchObject({ timeZone: zone, localTime: inAuckland(eventsJson.rows[0].timestamp) });

    // The audit log: its hashed columns as before, the zone's time after them all.
    const audit = csv(
      readFileSync(await finished((await ok('audit:exportFile', { filter: {}, format: 'csv', timeZone: zone })).jobId), 'utf8'),
    );
    expect(audit[0]!.slice(0, 9)).toEqual(['seq', 'at', 'operator', 'action', 'target', 'reason', 'result', 'prevHash', 'hash']);
    expect(audit[0]!.at(-1)).toBe(`at (${zone})`);
    for (const row of audit.slice(1)) expect(row.at(-1)).toBe(inAuckland(row[1]!));

    // Consents: each chosen time column again in the zone, last.
    const consents = csv(
      readFileSync(
        await finished(
          (
            await ok('consents:export', {
              filter: {},
              sort: { field: 'created', direction: 'desc' },
              columns: ['consentId', 'created', 'status', 'sharingEndDate'],
              format: 'csv',
              timeZone: zone,
            })
          ).jobId,
        ),
        'utf8',
      ),
    );
    expect(consents[0]).toEqual(['Consent id', 'Created', 'Status', 'Sharing end date', `Created (${zone})`, `Sharing end date (${zone})`]);
    for (const row of consents.slice(1, 30)) {
      expect(row[4]).toBe(inAuckland(row[1]!));
      expect(row[5]).toBe(row[3] ? inAuckland(row[3]) : '');
    }

    // The evidence pack's summary: Auckland's times, each with its UTC instant.
    const id = consents[1]![0]!;
    const pack = unzipSync(readFileSync(await finished((await ok('evidence:export', { consentId: id, timeZone: zone })).jobId)));
    const html = strFromU8(pack['summary.html']!);
    expect(html).toContain(`Times are in ${zone}, each followed by its UTC instant as stored`);
    const created = consents[1]![1]!;
    expect(html).toContain(`<td>${inAuckland(created)} · ${created}</td>`);

    // An unknown zone is refused, saying why; nothing is exported.
    const refused = await call('events:export', { filter: {}, format: 'csv', timeZone: 'Pacific/Atlantis' });
    expect(refused.ok).toBe(false);
    expect(refused.error.message).toMatch(/unknown time zone/);
  });
});

describe('profiles from Settings', () => {
  const profile = (extra: Record<string, unknown> = {}) => ({
    id: 'other',
    name: 'Other intermediary',
    environment: 'nonprod',
    consentApiBaseUrl: other.url,
    tokenUrl: `${other.url}/oauth2/token`,
    clientId: 'other-client',
    authMethod: 'client_secret_basic',
    scopes: ['consents:read', 'consents:write', 'use-cases:read', 'data-holders:read'],
    ...extra,
  });

  it('saves a profile with its secret in the vault, never in profiles.json or an answer, and tests it before switching', async () => {
    expect((await call('profiles:save', profile())).error.message).toMatch(/Give the client secret/);
    const list = await ok('profiles:save', profile({ secret: SECRET }));
    expect(list.find((p: any) => p.id === 'other')).toMatchObject({
      hasCredential: true,
      isCurrent: false,
      authMethod: 'client_secret_basic',
    });
    expect(readFileSync(join(dataDir, 'profiles.json'), 'utf8')).not.toContain(SECRET);
    const tested = await ok('profiles:test', { id: 'other' });
    expect(tested.ok).toBe(true);
    expect(tested.steps.map((s: any) => s.step)).toEqual(['token', 'consent-list']);
    // A wrong secret says which step failed, before anything is switched.
    await ok('profiles:save', profile({ secret: 'wrong' }));
    expect((await ok('profiles:test', { id: 'other' })).steps[0]).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/invalid_client/),
    });
    await ok('profiles:save', profile({ secret: SECRET }));
    // An edit without a secret keeps the stored one.
    expect(
      (await ok('profiles:save', profile({ name: 'Other intermediary (UAT)' }))).find((p: any) => p.id === 'other').hasCredential,
    ).toBe(true);
    expect((await call('profiles:save', profile({ id: 'sandbox', secret: 'x' }))).error.message).toMatch(/embedded sandbox/);
  });

  it('switches: the console reopens on the other profile and its own cache, then back', async () => {
    const embeddedUrl = host.core().sandboxUrl;
    expect(embeddedUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const switched = new Promise<any>((resolve) => {
      const off = host.events.subscribe((event, payload) => {
        if (event === 'profile:switched') {
          off();
          resolve(payload);
        }
      });
    });
    expect(await ok('profiles:switch', { id: 'other' })).toEqual({ switching: true });
    expect(await switched).toMatchObject({ profileId: 'other', ok: true });
    expect((await ok('app:status', {})).profile).toMatchObject({ id: 'other', name: 'Other intermediary (UAT)', environment: 'nonprod' });
    await ok('sync:start', {});
    expect((await ok('consents:count', { filter: {} })).total).toBe(40);
    expect((await call('profiles:remove', { id: 'other' })).error.message).toMatch(/switch to another one before removing/);
    await ok('profiles:switch', { id: 'sandbox' });
    await expect.poll(async () => (await ok('app:status', {})).profile.id).toBe('sandbox');
    expect((await ok('consents:count', { filter: {} })).total).toBe(250);
    // The embedded sandbox is back at the URL the host printed at start.
    expect(host.core().sandboxUrl).toBe(embeddedUrl);
    expect((await fetch(`${embeddedUrl}/__sandbox/status`)).ok).toBe(true);
    expect((await ok('profiles:remove', { id: 'other' })).map((p: any) => p.id)).toEqual(['sandbox']);
  });

  it('falls back to the open profile, saying why, when the other cannot be opened', async () => {
    await ok('profiles:save', profile({ id: 'newer', secret: SECRET }));
    // Its cache was written by a newer console: refused, never downgraded.
    const { mkdirSync } = await import('node:fs');
    const Database = (await import('better-sqlite3-multiple-ciphers')).default;
    mkdirSync(join(dataDir, 'profiles', 'newer'), { recursive: true });
    const future = new Database(join(dataDir, 'profiles', 'newer', 'cache.sqlite'));
    future.pragma('user_version = 99');
    future.close();
    const switched = new Promise<any>((resolve) => {
      const off = host.events.subscribe((event, payload) => {
        if (event === 'profile:switched') {
          off();
          resolve(payload);
        }
      });
    });
    await ok('profiles:switch', { id: 'newer' });
    expect(await switched).toMatchObject({
      profileId: 'sandbox',
      ok: false,
      message: expect.stringMatching(/could not open profile "newer".*newer CDR Console.*back on "sandbox"/s),
    });
    expect((await ok('app:status', {})).profile.id).toBe('sandbox');
    expect((await ok('consents:count', { filter: {} })).total).toBe(250);
  });

  it('never sent a secret back', () => {
    expect(responses.join('\n')).not.toContain(SECRET);
  });
});

/** The instant of local midnight of a day in a zone (the zone's offset found by asking Intl, twice for a change of offset). */
function zonedMidnight(y: number, m: number, d: number, timeZone: string): string {
  let guess = Date.UTC(y, m - 1, d);
  for (let i = 0; i < 2; i++) {
    const p = Object.fromEntries(
      new Intl.DateTimeFormat('en-CA', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
      })
        .formatToParts(new Date(guess))
        .map((x) => [x.type, Number(x.value)]),
    );
    const shown = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!);
    guess -= shown - Date.UTC(y, m - 1, d);
  }
  return new Date(guess).toISOString();
}
