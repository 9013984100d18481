import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openOidc } from '../../electron/core/people/oidc.js';
import { SESSION_COOKIE } from '../../electron/host/server.js';
import { startOidcProvider, type TestBrowser, type TestOidcProvider } from '../helpers/oidc-provider.js';
import { startTeamHost, type TeamHost } from '../helpers/team-host.js';

/**
 * Signing out of a console that single sign-on opened also signs the person out at the identity
 * provider (issue 35). Before, the provider's session stayed open: on a shared PC the next person
 * pressed "Sign in with …" and was the previous one. Against a real OpenID provider (oidc-provider)
 * run here: one offering RP-Initiated Logout, one that does not.
 */
const GROUPS = { 'cdr-admin': 'admin', 'cdr-support': 'support', 'cdr-compliance': 'compliance', 'cdr-viewers': 'viewer' } as const;
let team: TeamHost;
let idp: TestOidcProvider;

async function enable(provider: TestOidcProvider) {
  team.people.enableSso(
    'Sign in with Example ID',
    () =>
      openOidc({
        issuer: provider.issuer,
        clientId: provider.clients.main.clientId,
        clientSecret: provider.clients.main.clientSecret!,
        redirectUri: `${team.origin}/signin/oidc/callback`,
        groupRoles: GROUPS,
        scopes: ['openid', 'profile', 'email', 'groups'],
      }),
    () => undefined,
    `${team.origin}/signin?signed-out`,
  );
}

beforeAll(async () => {
  team = await startTeamHost({ users: [['ada', 'Ada Admin', 'admin']], consents: 5 });
  idp = await startOidcProvider({
    redirectUri: `${team.origin}/signin/oidc/callback`,
    postLogoutRedirectUri: `${team.origin}/signin?signed-out`,
  });
  await enable(idp);
}, 120_000);
afterAll(async () => {
  await idp?.close();
  await team?.close();
});

const cookies = (h: string | string[] | undefined) => (Array.isArray(h) ? h : h ? [h] : []);

/** "Sign in with Example ID" in `browser`, as `who` (asked for only if the provider asks): the console's session cookie. */
async function ssoIn(provider: TestOidcProvider, browser: TestBrowser, who: string): Promise<string> {
  const start = await team.send('GET', '/signin/oidc');
  const pending = cookies(start.headers['set-cookie'])
    .find((c) => c.startsWith('cdr_console_sso='))!
    .split(';')[0]!;
  const callback = await provider.signIn(String(start.headers.location), who, browser);
  const back = await team.send('GET', `${callback.pathname}${callback.search}`, { headers: { cookie: pending } });
  expect(back.status).toBe(303);
  return cookies(back.headers['set-cookie'])
    .find((c) => c.startsWith(`${SESSION_COOKIE}=`))!
    .split(';')[0]!;
}

async function consoleSignOut(session: string) {
  const out = await team.send('POST', '/api/signout', {
    headers: { cookie: session, origin: team.origin, 'content-type': 'application/json' },
    body: '{}',
  });
  expect(out.status).toBe(200);
  return JSON.parse(out.body) as { signedOut: boolean; provider?: { endSession: string | null } };
}

describe('signing out of a console single sign-on opened', () => {
  it('ends the provider’s session too: the next press of the button asks who it is', async () => {
    const browser = idp.browser();
    const session = await ssoIn(idp, browser, 'bob');
    expect(browser.prompts).toContain('login');
    // While the provider's session lasts, the button signs the same person in without asking.
    const asked = browser.prompts.length;
    await ssoIn(idp, browser, 'bob');
    expect(browser.prompts.slice(asked)).not.toContain('login');

    const out = await consoleSignOut(session);
    expect(out.signedOut).toBe(true);
    const endSession = new URL(out.provider!.endSession!);
    expect(endSession.origin).toBe(idp.issuer);
    expect(endSession.searchParams.get('post_logout_redirect_uri')).toBe(`${team.origin}/signin?signed-out`);
    // The console's session is over at once; the browser goes to the provider, which signs out and sends it back.
    expect((await team.send('GET', '/api/session', { headers: { cookie: session } })).status).toBe(401);
    const landed = await idp.signOut(endSession, browser);
    expect(landed.href).toBe(`${team.origin}/signin?signed-out`);
    expect((await team.send('GET', `${landed.pathname}${landed.search}`)).body).toContain('You are signed out.');

    // The next person at this browser is asked who they are.
    const before = browser.prompts.length;
    await ssoIn(idp, browser, 'erin@example.test');
    expect(browser.prompts.slice(before)).toContain('login');
  });

  it('opened under another name of this machine (localhost for 127.0.0.1), the button first goes to the registered one', async () => {
    const port = new URL(team.origin).port;
    const start = await team.send('GET', '/signin/oidc', { headers: { host: `localhost:${port}` } });
    expect(start.status).toBe(303);
    expect(start.headers.location).toBe(`${team.origin}/signin/oidc`);
    expect(start.headers['set-cookie']).toBeUndefined();
  });

  it('a password user’s sign-out is the console’s alone', async () => {
    const res = await team.send('POST', '/signin', {
      headers: { origin: team.origin, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ user: 'ada', password: 'ada password 1' }).toString(),
    });
    const session = cookies(res.headers['set-cookie'])[0]!.split(';')[0]!;
    expect(await consoleSignOut(session)).toEqual({ signedOut: true, everywhere: false });
  });

  it('a provider that offers no sign-out: the sign-in page says the person may still be signed in there', async () => {
    const plain = await startOidcProvider({ redirectUri: `${team.origin}/signin/oidc/callback`, rpInitiatedLogout: false });
    try {
      await enable(plain);
      const session = await ssoIn(plain, plain.browser(), 'bob');
      expect((await consoleSignOut(session)).provider).toEqual({ endSession: null });
      expect((await team.send('GET', '/signin?signed-out&provider-session')).body).toContain(
        'You may still be signed in at your identity provider, which offers no sign-out to the console: on a shared computer, sign out there too, or close the browser.',
      );
    } finally {
      await enable(idp);
      await plain.close();
    }
  });
});
