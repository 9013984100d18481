import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCoreHost, type CoreHost } from '../../electron/core/core-host.js';
import { tempDir } from '../helpers/temp.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- envelopes are read as loose JSON */

/**
 * Alert rules through the router, against webhook failures caused for real (issue 38): the embedded
 * sandbox's webhook target is a server here that answers 500, staff revoke consents, the sandbox's
 * deliveries fail and are retried to exhaustion, the next sync brings the failure events in, and the
 * rules fire once the sync ends — one alert each, audited, however often they are evaluated again;
 * acknowledged by a person; a silence without a reason refused.
 */
const quiet = { info() {}, error() {} };
let host: CoreHost;
let target: Server;
let posts = 0;
const call = async (channel: string, input: unknown): Promise<any> => host.router.handle(channel, input, true);
const ok = async (channel: string, input: unknown): Promise<any> => {
  const e = await call(channel, input);
  if (!e.ok) throw new Error(`${channel}: ${e.error.code} ${e.error.message}`);
  return e.value;
};
const FAILURES = ['WEBHOOK_SENDING_FAILED', 'WEBHOOK_SENDING_FAILED_CLIENT_ERROR', 'WEBHOOK_MAX_RETRIES_REACHED'];
const lastHour = () => new Date(Date.now() - 3_600_000).toISOString();

beforeAll(async () => {
  target = createServer((req, res) => {
    posts++;
    req.resume();
    res.writeHead(500, { 'content-type': 'text/plain' }).end('the recipient endpoint is down');
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  host = await startCoreHost({
    dataDir: tempDir(),
    host: 'browser',
    appVersion: 'test',
    log: quiet,
    sandbox: {
      seed: 19,
      consents: 40,
      webhookUrl: `http://127.0.0.1:${(target.address() as AddressInfo).port}/cdr-webhook`,
      webhookRetryDelaysMs: [5, 5, 5],
    },
  });
  // These tests count what their own rules do: the rule 9.4 reminder every console starts with fires
  // in a report's 30 days (some days of the year) and is tested in rule94.test.ts.
  await ok('alerts:removeRule', { id: 'rule94-reminder' });
  await host.core().sync();
});
afterAll(async () => {
  await host?.close();
  await new Promise((resolve) => target?.close(resolve));
});

describe('alert rules against real webhook failures', () => {
  it('fire once after the sync that brings the failures in, stay one alert each, and are audited', async () => {
    // The seeded history's own failures in the last hour: the rules fire on what comes after.
    const before = (await ok('events:count', { filter: { types: FAILURES, from: lastHour() } })).total;
    const beforeMax = (await ok('events:count', { filter: { types: ['WEBHOOK_MAX_RETRIES_REACHED'], from: lastHour() } })).total;
    const failing = await ok('alerts:addRule', {
      kind: 'webhook-failures',
      params: { windowMinutes: 60, atLeast: before + 4, ratePercent: 100 },
    });
    const exhausted = await ok('alerts:addRule', { kind: 'max-retries', params: { windowMinutes: 60, atLeast: beforeMax + 2 } });
    expect(failing.text).toBe(`Webhook deliveries failing: ${before + 4} or more in 1 hour, or 100% of deliveries`);
    expect((await ok('alerts:evaluate', {})).map((t: any) => t.outcome)).toEqual(['none', 'none']);

    // Two revocations: each REVOKED event's delivery fails, is retried three times, and gives up.
    const active = (
      await ok('consents:list', { filter: { statuses: ['ACTIVE'] }, sort: { field: 'created', direction: 'desc' }, offset: 0, limit: 2 })
    ).rows;
    for (const c of active) await ok('consents:revoke', { consentId: c.consentId, reason: 'customer asked by phone' });
    await expect.poll(() => posts, { timeout: 10_000 }).toBeGreaterThanOrEqual(8);

    const changed: string[] = [];
    const off = host.events.subscribe((event, payload: any) => event === 'cache:changed' && changed.push(payload.entity));
    await ok('sync:start', {});
    await expect.poll(async () => (await ok('alerts:list', { limit: 10 })).attention, { timeout: 15_000 }).toBe(2);
    off();
    expect(changed).toContain('alerts');
    const { alerts } = await ok('alerts:list', { limit: 10 });
    expect(alerts.map((a: any) => [a.title, a.state])).toEqual(
      expect.arrayContaining([
        ['Webhook deliveries failing', 'firing'],
        ['Webhook deliveries that reached max retries', 'firing'],
      ]),
    );
    expect(alerts.find((a: any) => a.ruleId === failing.id).summary).toMatch(
      /^\d+ webhook deliveries failed in the last 1 hour \(\d+% of \d+\)$/,
    );

    // Evaluated again and again: still one alert each, no new audit entry of a firing.
    for (let i = 0; i < 3; i++) expect((await ok('alerts:evaluate', {})).map((t: any) => t.outcome)).toEqual(['updated', 'updated']);
    const firings = (await ok('audit:query', { filter: { action: 'alert:firing' }, offset: 0, limit: 10 })).rows;
    expect(firings).toHaveLength(2);
    expect(firings[0].operator).toBe('CDR Console (alerts)');

    // A person acknowledges one: the bell's count drops, the log says who.
    const ack = await ok('alerts:acknowledge', { id: alerts.find((a: any) => a.ruleId === exhausted.id).id });
    expect(ack.acknowledgedBy).toBeTruthy();
    expect((await ok('alerts:list', { limit: 10 })).attention).toBe(1);
    expect((await ok('audit:query', { filter: { action: 'alert:acknowledged' }, offset: 0, limit: 10 })).rows).toHaveLength(1);

    // A silence needs its reason; with one it holds, and is audited with it.
    const refused = await call('alerts:silence', { id: failing.id, minutes: 60, reason: null });
    expect(refused.ok).toBe(false);
    expect(refused.error.message).toMatch(/Say why the rule is silenced/);
    const silenced = await ok('alerts:silence', { id: failing.id, minutes: 60, reason: 'endpoint migration tonight' });
    expect(silenced).toMatchObject({ silenced: true, silenceReason: 'endpoint migration tonight' });
    expect((await ok('alerts:list', { limit: 10 })).alerts.find((a: any) => a.ruleId === failing.id).silenced).toBe(true);
    const entry = (await ok('audit:query', { filter: { action: 'alert:silenced' }, offset: 0, limit: 10 })).rows[0];
    expect(entry.reason).toBe('endpoint migration tonight');
  });

  it('a rule that watches one data holder counts only its consents’ withdrawals, and names it', async () => {
    // Each consent's data holder, and the withdrawals per data holder in the last hour, read apart from the rules.
    const all = (await ok('consents:list', { filter: {}, sort: { field: 'created', direction: 'desc' }, offset: 0, limit: 500 })).rows;
    const holderOf = new Map<string, string>(all.map((c: any) => [c.consentId, c.dataHolderBrandId]));
    const withdrawals = async (holder: string) =>
      (await ok('events:list', { filter: { types: ['REVOKED'], from: lastHour() }, offset: 0, limit: 500 })).rows.filter(
        (e: any) => holderOf.get(e.consentId) === holder,
      ).length;
    const target = all.find((c: any) => c.status === 'ACTIVE' && c.dataHolderBrandId)!;
    const other = all.find((c: any) => c.dataHolderBrandId && c.dataHolderBrandId !== target.dataHolderBrandId)!;
    const [atTarget, atOther] = [await withdrawals(target.dataHolderBrandId), await withdrawals(other.dataHolderBrandId)];
    const watching = await ok('alerts:addRule', {
      kind: 'withdrawal-spike',
      params: { windowMinutes: 60, atLeast: atTarget + 1 },
      dataHolderBrandId: target.dataHolderBrandId,
    });
    const elsewhere = await ok('alerts:addRule', {
      kind: 'withdrawal-spike',
      params: { windowMinutes: 60, atLeast: atOther + 1 },
      dataHolderBrandId: other.dataHolderBrandId,
    });
    expect(watching.params.dataHolder).toEqual({ id: target.dataHolderBrandId, name: expect.any(String) });
    const name = watching.params.dataHolder.name;
    expect(watching.text).toBe(`Consumer withdrawals spiking at ${name}: ${atTarget + 1} or more in 1 hour`);

    // One withdrawal at the watched data holder: its rule fires, the other data holder's does not.
    await ok('consents:revoke', { consentId: target.consentId, reason: 'customer asked by phone' });
    await ok('sync:start', {});
    const outcome = async (ruleId: string) => (await ok('alerts:evaluate', {})).find((t: any) => t.ruleId === ruleId);
    await expect.poll(async () => (await ok('alerts:list', { limit: 20 })).alerts.some((a: any) => a.ruleId === watching.id)).toBe(true);
    const raised = (await ok('alerts:list', { limit: 20 })).alerts.find((a: any) => a.ruleId === watching.id);
    expect(raised).toMatchObject({ state: 'firing', title: `Consumer withdrawals spiking at ${name}` });
    const n = atTarget + 1;
    expect(raised.summary).toBe(`${n} ${n === 1 ? 'consent' : 'consents'} at ${name} withdrawn in the last 1 hour`);
    expect(await outcome(elsewhere.id)).toMatchObject({ outcome: 'none' });
    expect((await ok('alerts:list', { limit: 20 })).alerts.some((a: any) => a.ruleId === elsewhere.id)).toBe(false);

    // A data holder the console does not know, or one on a rule that watches the whole console: refused, saying why.
    const unknown = await call('alerts:addRule', { kind: 'max-retries', dataHolderBrandId: 'no-such-holder' });
    expect(unknown.error.message).toMatch(/^No data holder no-such-holder is known to the console/);
    const wrongKind = await call('alerts:addRule', { kind: 'sync-stale', dataHolderBrandId: target.dataHolderBrandId });
    expect(wrongKind.error.message).toBe('“Sync stale or failing” watches the whole console, not one data holder: add it without one.');
  });

  it('refuses a rule outside its bounds, saying which', async () => {
    const e = await call('alerts:addRule', { kind: 'expiring-consents', params: { withinDays: 365 } });
    expect(e.ok).toBe(false);
    expect(e.error.message).toBe('Sharing ends within (days): 365 is outside 1–90.');
  });
});
