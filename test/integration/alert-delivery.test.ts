import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCoreHost, type CoreHost } from '../../electron/core/core-host.js';
import { tempDir } from '../helpers/temp.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- envelopes are read as loose JSON */

/**
 * Where alerts go (issue 38), against servers nobody here wrote: a real SMTP server (the
 * `smtp-server` package, with a password) receives the e-mails, and a webhook receiver checks each
 * signature with the Standard Webhooks library. A rule fires when a sync fails for real (the
 * sandbox answers 503 to a page until the sync gives up): one e-mail and one webhook; evaluated
 * again, nothing more; the next good sync resolves it: one more of each. The SMTP password never
 * comes back from the console; each delivery is in the audit log.
 */
const quiet = { info() {}, error() {} };
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
let host: CoreHost;
let smtp: SMTPServer;
let receiver: Server;
const mails: { from: string; to: string[]; raw: string; user: string | undefined }[] = [];
const hooks: { body: any; verified: boolean; error?: string }[] = [];

const call = async (channel: string, input: unknown): Promise<any> => host.router.handle(channel, input, true);
const ok = async (channel: string, input: unknown): Promise<any> => {
  const e = await call(channel, input);
  if (!e.ok) throw new Error(`${channel}: ${e.error.code} ${e.error.message}`);
  return e.value;
};
/** A mail's text, its quoted-printable soft line breaks undone. */
const text = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');

beforeAll(async () => {
  smtp = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      if (auth.username === 'alerts' && auth.password === 'p@ss w0rd') callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (d: Buffer) => (raw += d.toString()));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          user: session.user as string | undefined,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const wh = new Webhook(SECRET);
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      try {
        wh.verify(body, req.headers as Record<string, string>);
        hooks.push({ body: JSON.parse(body), verified: true });
      } catch (e) {
        hooks.push({ body: JSON.parse(body), verified: false, error: (e as Error).message });
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  host = await startCoreHost({ dataDir: tempDir(), host: 'browser', appVersion: 'test', log: quiet, sandbox: { seed: 29, consents: 30 } });
  // These tests count the messages of their own rules: the rule 9.4 reminder every console starts with
  // fires in a report's 30 days (some days of the year) and is tested in rule94.test.ts.
  await ok('alerts:removeRule', { id: 'rule94-reminder' });
  await host.core().sync();
});
afterAll(async () => {
  await host?.close();
  await new Promise((resolve) => smtp?.close(() => resolve(undefined)));
  await new Promise((resolve) => receiver?.close(resolve));
});

describe('alert delivery by e-mail and webhook', () => {
  it('keeps the SMTP password in the vault, refuses what is not an address, and sends a test each way', async () => {
    const smtpPort = (smtp.server.address() as AddressInfo).port;
    const hookPort = (receiver.address() as AddressInfo).port;
    const refused = await call('alerts:setDelivery', {
      email: { smtpUrl: 'http://mail.example', from: 'x@example.com', to: ['y@example.com'] },
    });
    expect(refused.ok).toBe(false);
    expect(refused.error.code).toBe('INVALID_INPUT');
    const set = await ok('alerts:setDelivery', {
      email: {
        smtpUrl: `smtp://alerts:p%40ss%20w0rd@127.0.0.1:${smtpPort}`,
        from: 'console@recipient.example',
        to: ['oncall@recipient.example', 'compliance@recipient.example'],
      },
      webhook: { url: `http://127.0.0.1:${hookPort}/hooks/cdr`, secret: SECRET },
      consoleUrl: 'https://console.recipient.example',
    });
    expect(set.email).toEqual({
      smtpUrl: `smtp://alerts@127.0.0.1:${smtpPort}`,
      from: 'console@recipient.example',
      to: ['oncall@recipient.example', 'compliance@recipient.example'],
      hasPassword: true,
    });
    expect(JSON.stringify(await ok('alerts:delivery', {}))).not.toContain('w0rd');
    expect(await ok('alerts:testDelivery', { way: 'email' })).toMatchObject({
      ok: true,
      detail: expect.stringMatching(/^e-mail to oncall@recipient.example, compliance@recipient.example: sent/),
    });
    expect(await ok('alerts:testDelivery', { way: 'webhook' })).toMatchObject({
      ok: true,
      detail: expect.stringMatching(/: 204 after 1 attempt$/),
    });
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({
      from: 'console@recipient.example',
      to: ['oncall@recipient.example', 'compliance@recipient.example'],
      user: 'alerts',
    });
    expect(mails[0]!.raw).toMatch(/^Subject: \[CDR Console\] Firing: Test message$/m);
    expect(hooks).toHaveLength(1);
    expect(hooks[0]!.verified).toBe(true);
    mails.length = 0;
    hooks.length = 0;
  });

  it('a failing sync fires one e-mail and one signed webhook; re-evaluation sends nothing; the good sync after sends the resolution', async () => {
    await ok('alerts:addRule', { kind: 'sync-stale', params: { hours: 6 } });
    expect((await ok('alerts:evaluate', {})).map((t: any) => t.outcome)).toEqual(['none']);
    const admin = `${host.core().sandboxUrl}/__sandbox/faults`;
    await fetch(admin, { method: 'POST', body: JSON.stringify({ spec: '503:n8:/consents/v2' }) });
    try {
      const failed = await ok('sync:start', {});
      expect(failed.failures).toEqual([{ phase: 'consents', reason: expect.stringMatching(/answered 503/) }]);
    } finally {
      await fetch(admin, { method: 'DELETE' });
    }
    await expect.poll(() => mails.length + hooks.length, { timeout: 15_000 }).toBe(2);
    const mail = text(mails[0]!.raw);
    expect(mail).toMatch(/^Subject: \[CDR Console\] Firing: Sync stale or failing$/m);
    expect(mail).toContain('The last sync (');
    expect(mail).toContain('failed: consents: GET /consents/v2 answered 503');
    expect(mail).toContain('Open in the console: https://console.recipient.example/#/overview');
    expect(mail).toContain('<a href="https://console.recipient.example/#/overview">Open in the console</a>');
    expect(hooks[0]).toMatchObject({
      verified: true,
      body: {
        type: 'alert.firing',
        text: expect.stringMatching(/^Firing: Sync stale or failing: The last sync/),
        data: { kind: 'sync-stale', state: 'firing' },
      },
    });

    // The same failure evaluated again (a burst): no second message.
    for (let i = 0; i < 3; i++) await ok('alerts:evaluate', {});
    expect(mails).toHaveLength(1);
    expect(hooks).toHaveLength(1);

    // A good sync: resolved, told once each way.
    const good = await ok('sync:start', {});
    expect(good.failures).toEqual([]);
    await expect.poll(() => mails.length + hooks.length, { timeout: 15_000 }).toBe(4);
    expect(text(mails[1]!.raw)).toMatch(/^Subject: \[CDR Console\] Resolved: Sync stale or failing$/m);
    expect(hooks[1]).toMatchObject({ verified: true, body: { type: 'alert.resolved', data: { state: 'resolved' } } });
    const delivered = (await ok('audit:query', { filter: { action: 'alert:delivered' }, offset: 0, limit: 20 })).rows;
    expect(delivered).toHaveLength(6); // the two tests, then firing and resolved, each way
  });

  it('a silenced rule’s firing is held back from e-mail; lifted while it still fires, its message goes out once', async () => {
    // Only this test's rule, and e-mail only.
    for (const r of await ok('alerts:rules', {})) await ok('alerts:removeRule', { id: r.id });
    await ok('alerts:setDelivery', { webhook: null });
    const rule = await ok('alerts:addRule', { kind: 'sync-stale', params: { hours: 6 } });
    await ok('alerts:silence', { id: rule.id, minutes: 60, reason: 'intermediary maintenance tonight' });
    const before = mails.length;
    const admin = `${host.core().sandboxUrl}/__sandbox/faults`;
    await fetch(admin, { method: 'POST', body: JSON.stringify({ spec: '503:n8:/consents/v2' }) });
    try {
      expect((await ok('sync:start', {})).failures).not.toEqual([]);
    } finally {
      await fetch(admin, { method: 'DELETE' });
    }
    // Firing, silenced: in the centre, not in anyone's inbox.
    await expect
      .poll(async () => (await ok('alerts:list', { limit: 10 })).alerts.find((a: any) => a.ruleId === rule.id)?.silenced)
      .toBe(true);
    await ok('alerts:evaluate', {});
    await new Promise((r) => setTimeout(r, 1_000));
    expect(mails.length).toBe(before);
    // The silence lifted while it still fires: the message held back goes out, once.
    await ok('alerts:silence', { id: rule.id, minutes: null, reason: null });
    for (let i = 0; i < 3; i++) await ok('alerts:evaluate', {});
    await expect.poll(() => mails.length, { timeout: 15_000 }).toBe(before + 1);
    expect(text(mails[before]!.raw)).toMatch(/^Subject: \[CDR Console\] Firing: Sync stale or failing$/m);
    await new Promise((r) => setTimeout(r, 500));
    expect(mails.length).toBe(before + 1);
  });

  it('a webhook that keeps failing is retried, given up, and recorded as not sent', async () => {
    const down = createServer((_req, res) => res.writeHead(503).end());
    await new Promise<void>((resolve) => down.listen(0, '127.0.0.1', resolve));
    try {
      await ok('alerts:setDelivery', { webhook: { url: `http://127.0.0.1:${(down.address() as AddressInfo).port}/`, secret: null } });
      const r = await ok('alerts:testDelivery', { way: 'webhook' });
      expect(r).toEqual({ ok: false, detail: expect.stringMatching(/answered 503, gave up after 3 attempts$/) });
      const failed = (await ok('audit:query', { filter: { action: 'alert:delivery-failed' }, offset: 0, limit: 5 })).rows;
      expect(failed[0].result).toMatch(/webhook: .*gave up after 3 attempts/);
    } finally {
      await new Promise((resolve) => down.close(resolve));
    }
  });
});
