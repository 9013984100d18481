import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openOidc } from '../../electron/core/people/oidc.js';
import { cookieValue } from '../../electron/host/sign-in.js';
import { SESSION_COOKIE } from '../../electron/host/server.js';
import { startOidcProvider, type TestOidcProvider } from '../helpers/oidc-provider.js';
import { startTeamHost, type TeamHost } from '../helpers/team-host.js';

/**
 * Single sign-on end to end over HTTP (issue 20): a team server whose sign-in page sends staff to a
 * real OpenID provider running here (oidc-provider), and back: the person's user is made at their
 * first sign-in with the role their groups give, the session cookie is set, the audit log says
 * they signed in with single sign-on; a person whose groups map to no role is refused, saying so.
 */
let team: TeamHost;
let idp: TestOidcProvider;

beforeAll(async () => {
  team = await startTeamHost({ users: [['alice', 'Alice Password-User', 'admin']], consents: 10 });
  idp = await startOidcProvider({ redirectUri: `${team.origin}/signin/oidc/callback` });
  team.people.enableSso('Sign in with Example ID', () =>
    openOidc({
      issuer: idp.issuer,
      clientId: idp.clients.main.clientId,
      clientSecret: idp.clients.main.clientSecret!,
      redirectUri: `${team.origin}/signin/oidc/callback`,
      groupRoles: { 'cdr-admin': 'admin', 'cdr-support': 'support', 'cdr-compliance': 'compliance', 'cdr-viewers': 'viewer' },
      scopes: ['openid', 'profile', 'email', 'groups'],
    }),
  );
}, 120_000);
afterAll(async () => {
  await idp?.close();
  await team?.close();
});

const setCookies = (h: string | string[] | undefined) => (Array.isArray(h) ? h : h ? [h] : []);

/** The browser's trip: the console's button, the provider's login as `who`, back to the console. */
async function ssoAs(who: string) {
  const start = await team.send('GET', '/signin/oidc');
  expect(start.status).toBe(303);
  const pending = setCookies(start.headers['set-cookie']).find((c) => c.startsWith('cdr_console_sso='))!;
  expect(pending).toMatch(/HttpOnly; SameSite=Lax; Path=\/signin\/oidc/);
  const callback = await idp.signIn(String(start.headers.location), who);
  expect(callback.origin).toBe(team.origin);
  return team.send('GET', `${callback.pathname}${callback.search}`, { headers: { cookie: pending.split(';')[0]! } });
}

describe('single sign-on through the team server', () => {
  it('offers the provider on the sign-in page', async () => {
    const page = await team.send('GET', '/signin');
    expect(page.body).toContain('<a class="button secondary" href="/signin/oidc">Sign in with Example ID</a>');
  });

  it('signs a person in with the role of their groups, makes their user, and audits it as single sign-on', async () => {
    const back = await ssoAs('alice'); // the provider's alice: groups staff, cdr-support
    expect(back.status).toBe(303);
    expect(back.headers.location).toBe('/');
    const session = setCookies(back.headers['set-cookie']).find((c) => c.startsWith(`${SESSION_COOKIE}=`))!;
    expect(session).toMatch(/HttpOnly; SameSite=Strict/);
    const token = cookieValue(session.split(';')[0], SESSION_COOKIE)!;
    const me = await team.send('GET', '/api/session', { headers: { cookie: `${SESSION_COOKIE}=${token}` } });
    expect(JSON.parse(me.body).user).toMatchObject({ displayName: 'Alice Nguyen', role: 'support', method: 'oidc' });
    // Not the password user who happens to be called alice: the provider's person gets a user of their own.
    const users = await team.people.list();
    const sso = users.filter((u) => u.method === 'oidc');
    expect(sso.map((u) => [u.displayName, u.role])).toEqual([['Alice Nguyen', 'support']]);
    expect(users.find((u) => u.name === 'alice')!.method).toBe('password');
    const signIn = (await team.core.stores.audit.entries()).filter((e) => e.action === 'sign-in').at(-1)!;
    expect(signIn).toMatchObject({ result: 'ok (single sign-on)' });
    expect(signIn.person).toMatchObject({ displayName: 'Alice Nguyen', role: 'support', method: 'oidc' });
  });

  it('refuses a person whose groups give no role, saying to ask an admin, with no session', async () => {
    const back = await ssoAs('carol'); // groups: marketing
    expect(back.status).toBe(401);
    expect(back.body).toMatch(/role="alert">[^<]*ask an admin/);
    expect(setCookies(back.headers['set-cookie']).some((c) => c.startsWith(`${SESSION_COOKIE}=`))).toBe(false);
    const failed = (await team.core.stores.audit.entries()).filter((e) => e.action === 'sign-in:failed').at(-1)!;
    expect(failed.result).toMatch(/^failed: unknown_group/);
  });

  it('refuses a callback it did not start, or one used twice', async () => {
    const stray = await team.send('GET', '/signin/oidc/callback?code=abc&state=def');
    expect(stray.status).toBe(400);
    expect(stray.body).toContain('was not started here');
    const start = await team.send('GET', '/signin/oidc');
    const pending = setCookies(start.headers['set-cookie'])[0]!.split(';')[0]!;
    const callback = await idp.signIn(String(start.headers.location), 'bob');
    const first = await team.send('GET', `${callback.pathname}${callback.search}`, { headers: { cookie: pending } });
    expect(first.status).toBe(303);
    const again = await team.send('GET', `${callback.pathname}${callback.search}`, { headers: { cookie: pending } });
    expect(again.status).toBe(400);
  });

  it('a role changed at the provider is the role at the next sign-in (audited)', async () => {
    const bob = (await team.people.list()).find((u) => u.displayName === 'Bob Okafor')!;
    expect(bob.role).toBe('admin');
    await team.people.store.update(bob.id, { role: 'viewer' }, new Date().toISOString());
    expect((await ssoAs('bob')).status).toBe(303);
    expect((await team.people.store.byId(bob.id))!.role).toBe('admin');
    const change = (await team.core.stores.audit.entries()).filter((e) => e.action === 'user:role-changed').at(-1)!;
    expect(change).toMatchObject({ reason: "the identity provider's groups", result: 'viewer → admin' });
  });

  it('a person an admin added for single sign-on is that user at their first sign-in: disabled stays disabled', async () => {
    const added = await team.people.add({ name: 'erin@example.test', displayName: 'Erin Early', role: 'viewer', password: null }, 'ada');
    await team.people.setDisabled(added.id, true, 'ada');
    const refused = await ssoAs('erin@example.test');
    expect(refused.status).toBe(401);
    expect(refused.body).toContain('This user is disabled');
    await team.people.setDisabled(added.id, false, 'ada');
    expect((await ssoAs('erin@example.test')).status).toBe(303);
    const erins = (await team.people.list()).filter((u) => u.name.startsWith('erin'));
    expect(erins.map((u) => [u.id, u.name, u.role])).toEqual([[added.id, 'erin@example.test', 'viewer']]);
  });
});
