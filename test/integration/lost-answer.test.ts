import { createConnection, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCore, type Core } from '../../electron/core/console-core.js';
import { startSandbox, type RunningSandbox } from '../../electron/sandbox/server.js';
import { writeRemoteProfile } from '../helpers/remote.js';
import { ipcClient } from '../helpers/ipc.js';
import { tempDir } from '../helpers/temp.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- envelopes are read as loose JSON */

/**
 * A revocation whose answer is lost: the sandbox revokes, then drops the connection before it
 * answers (the `drop-after` fault). The console must re-read the consent before any retry, never
 * send the DELETE twice when it already took effect, show the true state, and write one audit
 * entry per attempt the operator made. When even the re-read fails, it must say the outcome is
 * unknown, not "nothing was sent".
 */
const quiet = { info() {}, error() {} };
let core: Core;
beforeAll(async () => {
  core = await startCore({ dataDir: tempDir(), host: 'browser', appVersion: 'test', log: quiet, sandbox: { seed: 61, consents: 80 } });
  await core.sync();
});
afterAll(() => core.close());
const { ok } = ipcClient(() => core);

const admin = async (method: string, path: string, body?: unknown, url = core.sandboxUrl!) =>
  (await fetch(`${url}/__sandbox${path}`, { method, ...(body ? { body: JSON.stringify(body) } : {}) })).json() as Promise<any>;
/** The sandbox's requests for one consent from now on, as "METHOD /path". */
async function watch(consentId: string, url = core.sandboxUrl!) {
  const from = (await admin('GET', '/requests', undefined, url)).requests.length;
  return async () =>
    ((await admin('GET', '/requests', undefined, url)).requests as string[])
      .slice(from)
      .filter((r) => r.startsWith('GET /consents/') || r.startsWith('DELETE /consents/'))
      .filter((r) => r.includes(consentId) && !r.includes('/consents/events'));
}
const activeIds = async (n: number) =>
  (
    await ok('consents:list', { filter: { statuses: ['ACTIVE'] }, offset: 0, limit: n, sort: { field: 'created', direction: 'asc' } })
  ).rows.map((r: any) => r.consentId as string);
const revokedEvents = async (consentId: string, url = core.sandboxUrl!) => {
  const token = await (await import('../helpers/temp.js')).tokenFor(url);
  const res = await fetch(`${url}/consents/events?consentId=${consentId}&eventTypes=REVOKED`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return ((await res.json()) as any).data.events.length as number;
};

describe('a revocation whose answer is lost', () => {
  it('the sandbox revoked and dropped the answer: re-read, not resent; the true state shown; one audit entry', async () => {
    const [id] = await activeIds(1);
    await admin('POST', '/faults', { spec: `drop-after:n1:DELETE /consents/${id}` });
    const requests = await watch(id!);
    const result = await ok('consents:revoke', { consentId: id, reason: 'Customer asked, ticket 1' });
    expect(result.outcome).toBe('revoked');
    expect(result.consent.status).toBe('REVOKED');
    // Read before, the DELETE whose answer was lost, the re-read that found it done, the refresh: no second DELETE.
    expect(await requests()).toEqual([`GET /consents/${id}`, `DELETE /consents/${id}`, `GET /consents/${id}`, `GET /consents/${id}`]);
    expect(await revokedEvents(id!)).toBe(1);
    const detail = await ok('consents:get', { consentId: id });
    expect(detail.consent.status).toBe('REVOKED');
    expect(detail.audit.filter((a: any) => a.action === 'revoke')).toEqual([
      expect.objectContaining({ target: id, reason: 'Customer asked, ticket 1', result: 'revoked' }),
    ]);

    // The operator tries again (the answer looked lost to them too): not sent again, since the log
    // says staff revoked it; a second entry saying so, the truth unchanged.
    const retry = await ok('consents:revoke', { consentId: id, reason: 'Trying again' });
    expect(retry.outcome).toBe('already-inactive');
    const again = await ok('consents:get', { consentId: id });
    const [first] = again.audit.filter((a: any) => a.action === 'revoke');
    expect(retry.revokedBy).toEqual({ operator: first.operator, at: first.at });
    expect(again.audit.filter((a: any) => a.action === 'revoke').map((a: any) => a.result)).toEqual([
      'revoked',
      `not sent: already revoked by ${first.operator} at ${first.at}`,
    ]);
    expect(await revokedEvents(id!)).toBe(1);
  });

  it('the connection dropped before the sandbox acted: the re-read finds it ACTIVE, so it is sent again, once', async () => {
    const [, id] = await activeIds(2);
    await admin('POST', '/faults', { spec: `drop:n1:DELETE /consents/${id}` });
    const requests = await watch(id!);
    expect((await ok('consents:revoke', { consentId: id, reason: 'Customer asked, ticket 2' })).outcome).toBe('revoked');
    expect(await requests()).toEqual([
      `GET /consents/${id}`,
      `DELETE /consents/${id}`,
      `GET /consents/${id}`,
      `DELETE /consents/${id}`,
      `GET /consents/${id}`,
    ]);
    expect(await revokedEvents(id!)).toBe(1);
    expect((await ok('consents:get', { consentId: id })).audit.filter((a: any) => a.action === 'revoke')).toHaveLength(1);
  });
});

/** A loopback TCP relay to the sandbox that can be cut: after the connection carrying a DELETE closes, nothing gets through. */
async function relay(target: number, cutAfter: string): Promise<{ url: string; restore(): void; close(): Promise<void> }> {
  let down = false;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    if (down) return void client.destroy();
    const upstream = createConnection(target, '127.0.0.1');
    sockets.add(client).add(upstream);
    let carriesCut = false;
    client.on('data', (d: Buffer) => {
      if (d.toString('latin1').startsWith(cutAfter)) carriesCut = true;
      upstream.write(d);
    });
    upstream.on('data', (d) => client.write(d));
    const end = () => {
      if (carriesCut) {
        down = true;
        for (const s of sockets) s.destroy();
      }
      client.destroy();
      upstream.destroy();
    };
    upstream.on('close', end);
    client.on('close', end);
    client.on('error', () => undefined);
    upstream.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    restore: () => void (down = false),
    close: () => new Promise((resolve) => (server.close(() => resolve()), sockets.forEach((s) => s.destroy()))),
  };
}

describe('a lost answer when the consent cannot be re-read either', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ seed: 62, consents: 40 });
  });
  afterAll(() => sandbox.close());

  it('says the outcome is unknown (not "not sent"), audits it; once reachable, the true state is shown and the retry is its own entry', async () => {
    const dataDir = tempDir();
    const id = (await (async () => {
      const token = await (await import('../helpers/temp.js')).tokenFor(sandbox.url);
      const res = await fetch(`${sandbox.url}/consents/v2?status=ACTIVE&pageSize=1`, { headers: { authorization: `Bearer ${token}` } });
      return ((await res.json()) as any).consents[0].consentId;
    })()) as string;
    const net = await relay(sandbox.port, `DELETE /consents/${id}`);
    writeRemoteProfile(dataDir, net.url);
    const remote = await startCore({ dataDir, host: 'browser', appVersion: 'test', log: quiet, clientSecret: 'sandbox-secret' });
    const r = ipcClient(() => remote);
    try {
      await remote.sync();
      await admin('POST', '/faults', { spec: `drop-after:n1:DELETE /consents/${id}` }, sandbox.url);
      const requests = await watch(id, sandbox.url);
      const lost = await r.raw('consents:revoke', { consentId: id, reason: 'Customer asked, ticket 3' });
      expect(lost).toMatchObject({
        ok: false,
        error: { code: 'OFFLINE', message: expect.stringMatching(/was sent but its answer was lost.*may or may not have taken effect/) },
      });
      expect(lost.error.message).not.toMatch(/not sent|Nothing was changed/);
      // It did take effect at the intermediary; the DELETE went once, and nothing was repeated blindly.
      expect(await requests()).toEqual([`GET /consents/${id}`, `DELETE /consents/${id}`]);
      expect(await revokedEvents(id, sandbox.url)).toBe(1);
      const unknown = await r.ok('consents:get', { consentId: id });
      expect(unknown.audit.filter((a: any) => a.action === 'revoke')).toEqual([
        expect.objectContaining({ result: expect.stringMatching(/^failed: The revocation was sent but its answer was lost/) }),
      ]);

      // Reachable again: the operator tries once more; the consent is read first, the truth (REVOKED) shown.
      net.restore();
      const retried = await r.ok('consents:revoke', { consentId: id, reason: 'Trying again' });
      expect(retried).toMatchObject({ outcome: 'already-inactive', consent: { status: 'REVOKED' } });
      const detail = await r.ok('consents:get', { consentId: id });
      expect(detail.consent.status).toBe('REVOKED');
      expect(detail.audit.filter((a: any) => a.action === 'revoke').map((a: any) => a.reason)).toEqual([
        'Customer asked, ticket 3',
        'Trying again',
      ]);
      expect(await revokedEvents(id, sandbox.url)).toBe(1);
    } finally {
      await remote.close();
      await net.close();
    }
  }, 30_000);
});
