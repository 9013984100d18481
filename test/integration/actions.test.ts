import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCore, type Core } from '../../electron/core/console-core.js';
import { CHANNELS } from '../../shared/ipc/contract.js';
import { ipcClient } from '../helpers/ipc.js';
import { tempDir, tokenFor } from '../helpers/temp.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- envelopes are read as loose JSON */

let core: Core;
let dataDir: string;
const responses: string[] = [];
beforeAll(async () => {
  dataDir = tempDir();
  core = await startCore({
    dataDir,
    host: 'browser',
    appVersion: 'test',
    log: { info() {}, error() {} },
    sandbox: { seed: 41, consents: 150 },
  });
  await core.sync();
});
afterAll(() => core.close());

/** Every call goes through the router, as from the renderer; every response is kept for the secret scan. */
const { raw: ipc, ok } = ipcClient(
  () => core,
  (r) => responses.push(r),
);
const cached = async (status: string) =>
  (await ok('consents:list', { filter: { statuses: [status] }, offset: 0, limit: 500, sort: { field: 'created', direction: 'desc' } }))
    .rows as any[];
const fault = (spec: string) => fetch(`${core.sandboxUrl}/__sandbox/faults`, { method: 'POST', body: JSON.stringify({ spec }) });

describe('actions through IPC', () => {
  it('records who acts: the OS account and a display name', async () => {
    const before = await ok('operator:get', {});
    expect(before.account.length).toBeGreaterThan(0);
    expect(await ok('operator:set', { displayName: 'Sam Support' })).toEqual({ account: before.account, displayName: 'Sam Support' });
  });

  it('revokes with a reason: the intermediary, the cache and the audit log agree', async () => {
    const [row] = await cached('ACTIVE');
    const result = await ok('consents:revoke', { consentId: row.consentId, reason: 'Customer called, ticket 4711' });
    expect(result.outcome).toBe('revoked');
    expect(result.consent.status).toBe('REVOKED');
    const detail = await ok('consents:get', { consentId: row.consentId });
    expect(detail.consent.status).toBe('REVOKED');
    expect(detail.versions.map((v: any) => v.consent.status)).toEqual(['ACTIVE', 'REVOKED']);
    expect(detail.audit.at(-1)).toMatchObject({
      action: 'revoke',
      target: row.consentId,
      reason: 'Customer called, ticket 4711',
      result: 'revoked',
      operator: expect.stringContaining('(Sam Support)'),
    });
    // Again: staff revoked it already, so nothing is sent; the second person is told by whom and
    // when, and the attempt is audited.
    const first = (await ok('consents:get', { consentId: row.consentId })).audit.at(-1);
    const again = await ok('consents:revoke', { consentId: row.consentId, reason: 'double click' });
    expect(again).toMatchObject({ outcome: 'already-inactive', revokedBy: { operator: first.operator, at: first.at } });
    expect((await ok('consents:get', { consentId: row.consentId })).audit.at(-1)).toMatchObject({
      reason: 'double click',
      result: `not sent: already revoked by ${first.operator} at ${first.at}`,
    });
  });

  it('revokes once when two people revoke the same consent at the same moment: the other is told who did', async () => {
    const [row] = await cached('ACTIVE');
    const results = await Promise.all([
      ok('consents:revoke', { consentId: row.consentId, reason: 'first caller' }),
      ok('consents:revoke', { consentId: row.consentId, reason: 'second caller' }),
    ]);
    expect(results.map((r) => r.outcome).sort()).toEqual(['already-inactive', 'revoked']);
    const audit = (await ok('consents:get', { consentId: row.consentId })).audit.filter((e: any) => e.action === 'revoke');
    expect(audit.map((e: any) => e.result)).toEqual(['revoked', expect.stringMatching(/^not sent: already revoked by /)]);
    expect(results.find((r) => r.outcome === 'already-inactive').revokedBy).toEqual({ operator: audit[0].operator, at: audit[0].at });
  });

  it('still reports 422 when the consent was ended at the data holder, not by staff', async () => {
    const [row] = await cached('ACTIVE');
    // The consumer withdrew it at the data holder: the sandbox ends it without a staff action.
    await fetch(`${core.sandboxUrl}/consents/${row.consentId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${await tokenFor(core.sandboxUrl!)}` },
    });
    const again = await ok('consents:revoke', { consentId: row.consentId, reason: 'customer asked' });
    expect(again.outcome).toBe('already-inactive');
    expect(again.revokedBy).toBeUndefined();
    expect((await ok('consents:get', { consentId: row.consentId })).audit.at(-1).result).toBe('already inactive at the data holder');
  });

  it('refuses a revocation without a real reason, and sends nothing', async () => {
    const [row] = await cached('ACTIVE');
    const e = await ipc('consents:revoke', { consentId: row.consentId, reason: '  ' });
    expect(e).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', message: expect.stringMatching(/reason is required/) } });
    expect((await ok('consents:get', { consentId: row.consentId })).consent.status).toBe('ACTIVE');
  });

  it('says so when offline, changes nothing, and audits the attempt', async () => {
    const [row] = await cached('ACTIVE');
    await fault('drop:n10');
    const e = await ipc('consents:revoke', { consentId: row.consentId, reason: 'while offline' });
    expect(e).toMatchObject({
      ok: false,
      error: { code: 'OFFLINE', message: expect.stringMatching(/You are offline: the revocation was not sent/) },
    });
    await fetch(`${core.sandboxUrl}/__sandbox/faults`, { method: 'DELETE' });
    expect((await ok('app:status', {})).online).toBe(false);
    const detail = await ok('consents:get', { consentId: row.consentId });
    expect(detail.consent.status).toBe('ACTIVE');
    expect(detail.audit.at(-1)).toMatchObject({ action: 'revoke', result: expect.stringMatching(/^failed: You are offline/) });
  });

  it('updates externalId, post-usage action and direct marketing, audited', async () => {
    const [row] = await cached('ACTIVE');
    const consent = await ok('consents:update', {
      consentId: row.consentId,
      change: { externalId: 'CRM-9', directMarketingAllowed: false },
      reason: 'CRM merge',
    });
    expect(consent).toMatchObject({ externalId: 'CRM-9', directMarketingAllowed: false });
    expect((await ok('consents:get', { consentId: row.consentId })).audit.at(-1)).toMatchObject({
      action: 'update',
      reason: 'CRM merge',
      result: expect.stringContaining('externalId'),
    });
    expect(await ipc('consents:update', { consentId: row.consentId, change: { sharingEndDate: '2030-01-01T00:00:00Z' } })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT' },
    });
  });

  it('extends a consent: authorization URI, decoded response, completion', async () => {
    const row = (await cached('ACTIVE')).find((r) => r.useCaseName !== 'Home loan application');
    const target = new Date(Date.parse(row.sharingEndDate) + 60 * 86_400_000).toISOString();
    const start = await ok('authorization:start', {
      consentId: row.consentId,
      redirectUri: 'https://recipient.example/cb',
      sharingEndDate: target,
    });
    expect(start).toMatchObject({
      uri: expect.stringContaining('/__dataholder/authorize'),
      expiry: expect.any(String),
      state: expect.any(String),
    });
    const redirect = await fetch(start.uri, { redirect: 'manual' });
    const response = new URL(redirect.headers.get('location')!).searchParams.get('response')!;
    const decoded = await ok('authorization:decode', { response });
    expect(decoded.claims).toMatchObject({ state: start.state, code: expect.any(String) });
    expect(decoded.header).toMatchObject({ alg: 'PS256' });
    expect(await ipc('authorization:decode', { response: 'not a jwt' })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT', message: expect.stringMatching(/not a JWT/) },
    });
    const done = await ok('authorization:complete', { consentId: row.consentId, response });
    expect(done.sharingEndDate).toBe(target);
    // The same response again: the intermediary's precise 400 reason reaches the operator.
    const replay = await ipc('authorization:complete', { consentId: row.consentId, response });
    expect(replay).toMatchObject({
      ok: false,
      error: { code: 'UPSTREAM', message: expect.stringMatching(/response code is unknown or already used/) },
    });
  });

  it('revokes in bulk at a limited rate, reporting each item, and resumes after going offline', async () => {
    const active = (await cached('ACTIVE')).slice(0, 6).map((r) => r.consentId);
    const ids = [...active, 'not-a-consent', active[0]];
    const { jobId: first } = await ok('bulk:revoke', { consentIds: ids, reason: 'Data breach response, incident 12', perSecond: 50 });
    // The request answers at once; the job runs on, and its end is in the jobs list.
    await expect
      .poll(async () => (await ok('jobs:list', {})).find((j: any) => j.jobId === first)?.state, { timeout: 15_000 })
      .toBe('finished');
    const { items, total } = await ok('jobs:items', { jobId: first, offset: 0, limit: 50 });
    expect(total).toBe(7);
    expect(items.map((i: any) => i.status)).toEqual(['revoked', 'revoked', 'revoked', 'revoked', 'revoked', 'revoked', 'failed']);
    expect(items.at(-1).detail).toMatch(/404/);
    // A job interrupted by going offline keeps its remaining items pending, and resumes.
    const more = (await cached('ACTIVE')).slice(0, 3).map((r) => r.consentId);
    const jobId = await core.actions.createBulkRevoke(more, 'second wave');
    await fault('drop:n40');
    const interrupted = await core.actions.runBulkRevoke(jobId, { perSecond: 50 });
    expect(interrupted.every((i) => i.status === 'pending')).toBe(true);
    expect(await core.actions.pendingBulkJobs()).toContain(jobId);
    await fetch(`${core.sandboxUrl}/__sandbox/faults`, { method: 'DELETE' });
    const resumed = await core.actions.runBulkRevoke(jobId, { perSecond: 50 });
    expect(resumed.map((i) => i.status)).toEqual(['revoked', 'revoked', 'revoked']);
    expect(await core.actions.pendingBulkJobs()).not.toContain(jobId);
  }, 30_000);

  it('keeps a verifiable audit log and exports it', async () => {
    expect(await ok('audit:verify', {})).toMatchObject({ ok: true });
    const { content, entries } = await ok('audit:export', { format: 'csv' });
    expect(entries).toBeGreaterThan(10);
    expect(content.split('\r\n')[0]).toBe('seq,at,operator,action,target,reason,result,prevHash,hash');
  });

  it('lists the connection profiles without their secrets', async () => {
    expect(await ok('profiles:list', {})).toEqual([
      expect.objectContaining({
        id: 'sandbox',
        embedded: true,
        isDefault: true,
        isCurrent: true,
        hasCredential: true,
        authMethod: 'client_secret_basic',
      }),
    ]);
  });

  it('lists webhook failures from the cache', async () => {
    const failures = await ok('events:failures', { page: 1, pageSize: 20 });
    expect(failures.total).toBeGreaterThan(0);
    expect(failures.rows.every((r: any) => r.eventType.startsWith('WEBHOOK_'))).toBe(true);
  });

  it('never lets a secret cross IPC: no client secret, token, cache key or key-file byte in any response', async () => {
    // Touch every channel at least once (failures included).
    for (const channel of CHANNELS) await ipc(channel, {});
    const { SecretVault, secretNames } = await import('../../electron/core/secrets/vault.js');
    const { createKeyFileCipher } = await import('../../electron/core/secrets/cipher.js');
    const cacheKey = new SecretVault(dataDir, createKeyFileCipher(dataDir)).get(secretNames.cacheKey('sandbox'))!;
    const masterKey = readFileSync(join(dataDir, 'keys', 'master.key'));
    const all = responses.join('\n');
    expect(responses.length).toBeGreaterThan(CHANNELS.length);
    expect(all).not.toContain('sandbox-secret');
    expect(all).not.toContain(cacheKey);
    expect(all).not.toContain(masterKey.toString('hex'));
    expect(all).not.toContain(masterKey.toString('base64'));
    // No JWT of any kind: access tokens stay in main, and a decoded response is returned as claims, not as the token.
    expect(all).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{20,}/);
  });
});
