import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { Core } from '../../electron/core/console-core.js';
import { SESSION_COOKIE, SESSION_ENDED, startBrowserHost, type BrowserHost } from '../../electron/host/server.js';
import { People } from '../../electron/core/people/people.js';
import { tempDir } from '../helpers/temp.js';
import { openTeamConsole, signInCookie, startTeamHost, type TeamHost } from '../helpers/team-host.js';
import type { ConsentRow } from '../../shared/ipc/contract.js';

/**
 * A team server's sign-in over real HTTP and a real WebSocket (issue 20): the sign-in page, a wrong
 * password told without saying which half was wrong, the session cookie, the person on every IPC
 * request and in every audit entry, a viewer's crafted revoke refused with the intermediary never
 * asked, sign-out everywhere closing the person's open consoles, and hostile input to the sign-in
 * and session endpoints never answered with a 500 or a crash.
 */
let team: TeamHost;
let core: Core;
let host: BrowserHost;
let origin: string;
let send: TeamHost['send'];

beforeAll(async () => {
  team = await startTeamHost({
    users: [
      ['alice', 'Alice Admin', 'admin'],
      ['sam', 'Sam Support', 'support'],
      ['vera', 'Vera Viewer', 'viewer'],
      ['sue', 'Sue Second', 'support'],
    ],
    consents: 40,
  });
  ({ core, host, origin, send } = team);
}, 120_000);
afterAll(() => team?.close());

/** What reached the intermediary so far: "METHOD /path?query" (the sandbox's request log). */
async function requestLog(): Promise<string[]> {
  return ((await (await fetch(`${core.sandboxUrl}/__sandbox/requests`)).json()) as { requests: string[] }).requests;
}

const form = (user: string, password: string) => ({
  headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams({ user, password }).toString(),
});
const signIn = (user: string) => signInCookie(team, user);
const openConsole = (cookie: string) => openTeamConsole(team, cookie);

describe('the sign-in page', () => {
  it('is where a visitor without a session is sent; it has User name, Password and Sign in, and the security headers', async () => {
    const root = await send('GET', '/', { headers: { accept: 'text/html' } });
    expect(root.status).toBe(303);
    expect(root.headers.location).toBe('/signin');
    const page = await send('GET', '/signin');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<label for="user">User name</label>');
    expect(page.body).toContain('<label for="password">Password</label>');
    expect(page.body).toMatch(/<button type="submit">Sign in<\/button>/);
    expect(page.headers['x-frame-options']).toBe('DENY');
    // A form posted under no-referrer would carry "Origin: null", which the host refuses.
    expect(page.headers['referrer-policy']).toBe('same-origin');
    expect(page.headers['content-security-policy']).toContain("form-action 'self'");
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    // An asset without a session: 401, not the app.
    expect((await send('GET', '/assets/index.js')).status).toBe(401);
    // The old one-run token no longer lets anyone in.
    expect((await send('GET', `/?token=${host.token}`, { headers: { accept: 'text/html' } })).headers.location).toBe('/signin');
  });

  it('says a wrong password or an unknown name is wrong, without saying which; keeps the name typed', async () => {
    const wrong = await send('POST', '/signin', form('vera', 'not the password'));
    const unknown = await send('POST', '/signin', form('nobody', 'not the password'));
    for (const r of [wrong, unknown]) {
      expect(r.status).toBe(401);
      expect(r.body).toContain('<p class="error" role="alert">The user name or password is wrong.</p>');
      expect(r.headers['set-cookie']).toBeUndefined();
    }
    expect(wrong.body).toContain('value="vera"');
  });

  it('signs in with the right password: an HttpOnly SameSite=Strict cookie, then the console', async () => {
    const res = await send('POST', '/signin', form('sam', 'sam password 1'));
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/');
    expect(String(res.headers['set-cookie'])).toMatch(
      /^cdr_console_session=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=\/; Expires=/,
    );
    const cookie = String(res.headers['set-cookie']).split(';')[0]!;
    const app = await send('GET', '/', { headers: { cookie } });
    expect(app.status).toBe(200);
    expect(app.body).toContain('<title>CDR Console</title>');
    const session = await send('GET', '/api/session', { headers: { cookie } });
    expect(JSON.parse(session.body)).toMatchObject({
      user: { userName: 'sam', displayName: 'Sam Support', role: 'support', method: 'password' },
    });
  });

  it('refuses a sign-in form posted from another site', async () => {
    const res = await send('POST', '/signin', {
      ...form('sam', 'sam password 1'),
      headers: { origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(403);
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('signs scripts in as JSON and takes the token as a bearer token', async () => {
    const res = await send('POST', '/api/signin', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: 'vera', password: 'vera password 1' }),
    });
    expect(res.status).toBe(200);
    const { token, user } = JSON.parse(res.body) as { token: string; user: { role: string } };
    expect(user.role).toBe('viewer');
    const session = await send('GET', '/api/session', { headers: { authorization: `Bearer ${token}` } });
    expect(session.status).toBe(200);
    const bad = await send('POST', '/api/signin', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: 'vera', password: 'nope nope nope' }),
    });
    expect(bad.status).toBe(401);
    expect(JSON.parse(bad.body)).toMatchObject({ error: 'The user name or password is wrong.' });
  });
});

describe('people on the console', () => {
  it('every request carries its person: the status bar’s user, the role checked, the audit entry names them', async () => {
    const vera = await openConsole(await signIn('vera'));
    const sam = await openConsole(await signIn('sam'));
    try {
      const status = (await vera.call('app:status', {})) as { ok: true; value: { user: { displayName: string; role: string } } };
      expect(status.value.user).toMatchObject({ displayName: 'Vera Viewer', role: 'viewer' });
      const list = (await sam.call('consents:list', {
        filter: { statuses: ['ACTIVE'] },
        sort: { field: 'created', direction: 'asc' },
        offset: 0,
        limit: 5,
      })) as { ok: true; value: { rows: ConsentRow[] } };
      const [first, second] = list.value.rows.map((r) => r.consentId);
      const before = (await requestLog()).length;
      // The viewer's crafted revoke: refused by the server, before anything runs.
      const refused = await vera.call('consents:revoke', { consentId: first, reason: 'crafted' });
      expect(refused).toEqual({ ok: false, error: { code: 'FORBIDDEN', message: 'Revoking needs the support role; you are a viewer.' } });
      expect((await requestLog()).slice(before).filter((r) => r.startsWith('DELETE'))).toEqual([]);
      // The support agent's goes through, and the audit log names them.
      const revoked = await sam.call('consents:revoke', { consentId: second, reason: 'customer asked' });
      expect(revoked.ok).toBe(true);
      expect((await requestLog()).slice(before).filter((r) => r.startsWith('DELETE'))).toEqual([
        `DELETE /consents/${encodeURIComponent(second!)}`,
      ]);
      const entry = (await core.stores.audit.entries({ target: second! })).find((e) => e.action === 'revoke')!;
      expect(entry.operator).toBe('sam (Sam Support)');
      expect(entry.person).toMatchObject({ displayName: 'Sam Support', role: 'support', method: 'password' });
      expect(entry.client).toMatch(/^127\.0\.0\.1/);
    } finally {
      vera.ws.close();
      sam.ws.close();
    }
  });

  it('sign out everywhere closes every console of that person (4401) and the cookie stops working', async () => {
    const cookieA = await signIn('vera');
    const cookieB = await signIn('vera');
    const a = await openConsole(cookieA);
    const b = await openConsole(cookieB);
    const sam = await openConsole(await signIn('sam'));
    const out = await send('POST', '/api/signout', {
      headers: { cookie: cookieA, origin, 'content-type': 'application/json' },
      body: '{"everywhere":true}',
    });
    expect(out.status).toBe(200);
    expect(String(out.headers['set-cookie'])).toContain('Max-Age=0');
    expect((await a.closed).code).toBe(SESSION_ENDED);
    expect((await b.closed).code).toBe(SESSION_ENDED);
    expect((await sam.call('app:status', {})).ok).toBe(true);
    sam.ws.close();
    expect((await send('GET', '/api/session', { headers: { cookie: cookieB } })).status).toBe(401);
    await expect(openConsole(cookieB)).rejects.toThrow('upgrade refused: 401');
    const audit = await core.stores.audit.entries();
    expect(audit.filter((e) => e.action === 'sign-out:everywhere').at(-1)).toMatchObject({ operator: 'vera (Vera Viewer)' });
  });

  it('an admin disabling a person closes their open console at once', async () => {
    const sam = await openConsole(await signIn('sam'));
    const alice = await openConsole(await signIn('alice'));
    const users = (await alice.call('users:list', {})) as { ok: true; value: { users: { id: string; name: string }[] } };
    const samId = users.value.users.find((u) => u.name === 'sam')!.id;
    // Not an admin: refused with why.
    expect(await sam.call('users:update', { id: samId, disabled: true })).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN', message: 'Changing users needs the admin role; you are a support agent.' },
    });
    expect((await alice.call('users:update', { id: samId, disabled: true })).ok).toBe(true);
    expect((await sam.closed).code).toBe(SESSION_ENDED);
    const entry = (await core.stores.audit.entries()).filter((e) => e.action === 'user:disabled').at(-1)!;
    expect(entry).toMatchObject({ operator: 'alice (Alice Admin)', target: 'user:sam' });
    expect((await alice.call('users:update', { id: samId, disabled: false })).ok).toBe(true);
    alice.ws.close();
  });
});

describe('a large bulk revocation needs a second person', () => {
  const active = async (c: Awaited<ReturnType<typeof openConsole>>, n: number, offset: number) =>
    (
      (await c.call('consents:list', {
        filter: { statuses: ['ACTIVE'] },
        sort: { field: 'created', direction: 'asc' },
        offset,
        limit: n,
      })) as { ok: true; value: { rows: ConsentRow[] } }
    ).value.rows.map((r) => r.consentId);
  const settle = async (c: Awaited<ReturnType<typeof openConsole>>, jobId: string) => {
    for (let i = 0; i < 200; i++) {
      const jobs = (await c.call('jobs:list', {})) as { ok: true; value: { jobId: string; state: string }[] };
      const job = jobs.value.find((j) => j.jobId === jobId);
      if (job && ['finished', 'failed', 'cancelled'].includes(job.state)) return job;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the job did not end');
  };

  it('waits for another support agent or an admin: not the asker, not a viewer; then runs, both names audited', async () => {
    const alice = await openConsole(await signIn('alice'));
    const sam = await openConsole(await signIn('sam'));
    const sue = await openConsole(await signIn('sue'));
    const vera = await openConsole(await signIn('vera'));
    try {
      expect(await sam.call('settings:set', { bulkApprovalOver: 3 })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
      expect((await alice.call('settings:set', { bulkApprovalOver: 3 })).ok).toBe(true);
      const ids = await active(sam, 5, 5);
      expect(ids).toHaveLength(5);
      const before = (await requestLog()).length;
      const asked = (await sam.call('bulk:revoke', { consentIds: ids, reason: 'customer asked', perSecond: 50 })) as {
        ok: true;
        value: { jobId: string; awaitingApproval?: boolean };
      };
      expect(asked.value.awaitingApproval).toBe(true);
      const { jobId } = asked.value;
      // Listed for every console as awaiting, and nothing sent.
      const listed = (await vera.call('jobs:list', {})) as { ok: true; value: { jobId: string; state: string; message: string }[] };
      expect(listed.value.find((j) => j.jobId === jobId)).toMatchObject({
        state: 'awaiting-approval',
        message: expect.stringContaining('sam (Sam Support)'),
      });
      expect(await sam.call('bulk:decide', { jobId, decision: 'approve' })).toMatchObject({
        ok: false,
        error: { code: 'FORBIDDEN', message: expect.stringContaining('you asked for this one') },
      });
      expect(await vera.call('bulk:decide', { jobId, decision: 'approve' })).toMatchObject({
        ok: false,
        error: { code: 'FORBIDDEN', message: 'Approving bulk revocations needs the support role; you are a viewer.' },
      });
      await new Promise((r) => setTimeout(r, 300));
      expect((await requestLog()).slice(before).filter((r) => r.startsWith('DELETE'))).toEqual([]);

      expect(await sue.call('bulk:decide', { jobId, decision: 'approve' })).toMatchObject({ ok: true });
      expect(await alice.call('bulk:decide', { jobId, decision: 'approve' })).toMatchObject({
        ok: false,
        error: { message: 'This bulk revocation was already approved by sue (Sue Second).' },
      });
      expect(await settle(sue, jobId)).toMatchObject({ state: 'finished', counts: { revoked: 5 } });
      expect((await requestLog()).slice(before).filter((r) => r.startsWith('DELETE'))).toHaveLength(5);
      const audit = await core.stores.audit.entries({ target: jobId });
      expect(audit.map((e) => [e.action, e.operator])).toEqual([
        ['bulk:approval-requested', 'sam (Sam Support)'],
        ['bulk:approved', 'sue (Sue Second)'],
      ]);
      expect(audit[1]!.result).toBe('approved the revocation of 5 consents asked by sam (Sam Support)');

      // Rejected: nothing is ever sent; the items say why.
      const more = await active(sam, 4, 0);
      expect(more).toHaveLength(4);
      const second = (await sam.call('bulk:revoke', { consentIds: more, reason: 'customer asked' })) as {
        ok: true;
        value: { jobId: string };
      };
      const mark = (await requestLog()).length;
      expect(await alice.call('bulk:decide', { jobId: second.value.jobId, decision: 'reject', reason: 'wrong list' })).toMatchObject({
        ok: true,
      });
      const items = (await sam.call('jobs:items', { jobId: second.value.jobId, offset: 0, limit: 10 })) as {
        ok: true;
        value: { items: { status: string; detail: string }[] };
      };
      expect(
        items.value.items.every((i) => i.status === 'failed' && i.detail.startsWith('not approved: rejected by alice (Alice Admin)')),
      ).toBe(true);
      expect((await requestLog()).slice(mark).filter((r) => r.startsWith('DELETE'))).toEqual([]);
      // Three or fewer: no approval needed.
      const small = (await sam.call('bulk:revoke', { consentIds: more.slice(0, 3), reason: 'customer asked', perSecond: 50 })) as {
        ok: true;
        value: { jobId: string; awaitingApproval?: boolean };
      };
      expect(small.value.awaitingApproval).toBeUndefined();
      expect(await settle(sam, small.value.jobId)).toMatchObject({ state: 'finished' });
    } finally {
      for (const c of [alice, sam, sue, vera]) c.ws.close();
    }
  });
});

describe('the idle time', () => {
  it('counts what the person does, not the console’s own polling: an unattended console is signed out (4401)', async () => {
    let clock = new Date('2026-11-26T09:00:00.000Z');
    const minutes = (n: number) => (clock = new Date(clock.getTime() + n * 60_000));
    const people = new People(team.people.store, () => core.stores.audit, { now: () => clock, idleMinutes: 30 });
    const staticDir = tempDir();
    const other = await startBrowserHost({
      router: core.router,
      events: core.events,
      staticDir,
      signIn: { service: people, recheckMs: 50 },
    });
    const otherOrigin = `http://127.0.0.1:${other.port}`;
    const connect = async () => {
      const signed = await people.signInWithPassword('vera', 'vera password 1', { address: '127.0.0.1', userAgent: null });
      if (!signed.ok) throw new Error('sign-in failed');
      const ws = new WebSocket(`ws://127.0.0.1:${other.port}/ipc`, {
        headers: { cookie: `${SESSION_COOKIE}=${signed.token}`, origin: otherOrigin },
      });
      const closed = new Promise<number>((r) => ws.on('close', (code) => r(code)));
      await new Promise((r) => ws.once('open', r));
      let id = 0;
      const ask = (active: boolean) =>
        new Promise((r) => {
          const n = ++id;
          ws.on('message', (d) => JSON.parse(String(d)).id === n && r(undefined));
          ws.send(JSON.stringify({ id: n, channel: 'app:status', input: {}, active }));
        });
      return { ws, closed, ask };
    };
    const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
    try {
      // Polling only (active: false): 35 minutes after sign-in the session is over.
      const polled = await connect();
      minutes(20);
      await polled.ask(false);
      minutes(15);
      expect(await polled.closed).toBe(SESSION_ENDED);

      // A person at work (active: true) 20 minutes in: still signed in 15 minutes later.
      const used = await connect();
      minutes(20);
      await wait(100);
      await used.ask(true);
      await wait(100);
      minutes(15);
      await wait(300);
      expect(used.ws.readyState).toBe(WebSocket.OPEN);
      minutes(31);
      expect(await used.closed).toBe(SESSION_ENDED);
    } finally {
      await other.close();
    }
  });
});

describe('hostile input to the sign-in and session endpoints', () => {
  it('never gets a 500 and never takes the server down', async () => {
    const cases: { method: string; path: string; headers?: Record<string, string>; body?: string }[] = [
      { method: 'GET', path: '/', headers: { cookie: `${SESSION_COOKIE}=` } },
      { method: 'GET', path: '/', headers: { cookie: `${SESSION_COOKIE}=${'A'.repeat(43)}` } },
      { method: 'GET', path: '/', headers: { cookie: `${SESSION_COOKIE}=${'%'.repeat(200)}; ${SESSION_COOKIE}=x` } },
      { method: 'GET', path: '/', headers: { cookie: ';;;==;=;' } },
      { method: 'GET', path: '/api/session', headers: { authorization: 'Bearer' } },
      { method: 'GET', path: '/api/session', headers: { authorization: `Bearer ${'x'.repeat(8000)}` } },
      { method: 'GET', path: '/api/session', headers: { cookie: `${SESSION_COOKIE}=${'é'.repeat(43)}` } },
      {
        method: 'POST',
        path: '/signin',
        headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'user=%ZZ&password=%',
      },
      {
        method: 'POST',
        path: '/signin',
        headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
        body: `user=sam&password=${'p'.repeat(7000)}`,
      },
      {
        method: 'POST',
        path: '/signin',
        headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
        body: `user=${'u'.repeat(5000)}&password=x`,
      },
      {
        method: 'POST',
        path: '/signin',
        headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'x'.repeat(20_000),
      },
      { method: 'POST', path: '/signin', headers: { origin, 'content-type': 'text/plain' }, body: 'user=sam' },
      { method: 'POST', path: '/signin', headers: { origin, 'content-type': 'application/x-www-form-urlencoded' }, body: '' },
      { method: 'POST', path: '/api/signin', headers: { 'content-type': 'application/json' }, body: '{"user": ' },
      { method: 'POST', path: '/api/signin', headers: { 'content-type': 'application/json' }, body: '[1,2,3]' },
      {
        method: 'POST',
        path: '/api/signin',
        headers: { 'content-type': 'application/json' },
        body: '{"user": {"$ne": null}, "password": []}',
      },
      {
        method: 'POST',
        path: '/api/signin',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ user: 'sam\u0000', password: 'x\ud800' }),
      },
      { method: 'POST', path: '/api/signout', headers: { 'content-type': 'application/json' }, body: '{"everywhere": "yes"' },
      { method: 'POST', path: '/api/signout', headers: { cookie: `${SESSION_COOKIE}=nope` } },
      { method: 'PUT', path: '/signin' },
      { method: 'DELETE', path: '/api/session' },
      { method: 'GET', path: '/signin/oidc' },
      { method: 'GET', path: '/signin/oidc/callback?code=x&state=y' },
      { method: 'GET', path: '/%E0%A4%A' },
      { method: 'GET', path: '/signin', headers: { 'x-huge': 'h'.repeat(12_000) } },
    ];
    for (const c of cases) {
      const res = await send(c.method, c.path, {
        ...(c.headers ? { headers: c.headers } : {}),
        ...(c.body !== undefined ? { body: c.body } : {}),
      });
      expect(res.status, `${c.method} ${c.path} ${JSON.stringify(c.headers ?? {}).slice(0, 80)}`).toBeLessThan(500);
    }
    // A WebSocket upgrade whose target cannot parse as a URL ("//", "http://"): refused, the process lives on.
    for (const target of ['//', '///', '//a:b', 'http://']) {
      const answer = await new Promise<string>((resolve) => {
        const socket = connect(host.port, '127.0.0.1', () =>
          socket.write(
            `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\nOrigin: ${origin}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
          ),
        );
        let got = '';
        socket.on('data', (d) => (got += d.toString()));
        socket.on('close', () => resolve(got));
        socket.on('error', () => resolve(got));
      });
      expect(answer, target).toMatch(/^HTTP\/1\.1 40[04]/);
    }
    // Headers past Node's limit are refused by the server itself (431), the process lives on.
    const huge = await send('GET', '/signin', { headers: { 'x-huge': 'h'.repeat(20_000) } }).catch(() => ({ status: 431 }));
    expect(huge.status).toBe(431);
    expect((await send('GET', '/signin')).status).toBe(200);
  });
});
