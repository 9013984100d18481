import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openOidc } from '../../electron/core/people/oidc.js';
import { startOidcProvider, type TestOidcProvider } from '../helpers/oidc-provider.js';
import { openTeamConsole, signInCookie, startTeamHost, type TeamConsole, type TeamHost } from '../helpers/team-host.js';

/**
 * Single sign-on set up wrong is said to the admin, at once and precisely (issue 35): a wrong or
 * unreachable issuer was found only when someone clicked; a rejected client secret read "the answer
 * could not be verified"; a provider sending no groups told every person that none of their groups
 * gave them a role; a refused attempt named nobody in its audit entry.
 */
let team: TeamHost;
let idp: TestOidcProvider;
let ada: TeamConsole;
const GROUPS = { 'cdr-admin': 'admin', 'cdr-support': 'support', 'cdr-viewers': 'viewer' } as const;

function enable(o: { issuer: string; secret?: string; scopes?: string[] }) {
  team.people.enableSso('Sign in with Example ID', () =>
    openOidc(
      {
        issuer: o.issuer,
        clientId: idp.clients.main.clientId,
        clientSecret: o.secret ?? idp.clients.main.clientSecret!,
        redirectUri: `${team.origin}/signin/oidc/callback`,
        groupRoles: GROUPS,
        scopes: o.scopes ?? ['openid', 'profile', 'email', 'groups'],
      },
      { timeoutSeconds: 2 },
    ),
  );
}

beforeAll(async () => {
  team = await startTeamHost({ users: [['ada', 'Ada Admin', 'admin']], consents: 5 });
  idp = await startOidcProvider({ redirectUri: `${team.origin}/signin/oidc/callback` });
  ada = await openTeamConsole(team, await signInCookie(team, 'ada'));
}, 120_000);
afterAll(async () => {
  await idp?.close();
  await team?.close();
});

const cookies = (h: string | string[] | undefined) => (Array.isArray(h) ? h : h ? [h] : []);
const ssoStatus = async () =>
  ((await ada.call('users:list', {})) as { value: { sso: { state: string; problem: string | null } | null } }).value.sso;

async function ssoAs(who: string) {
  const start = await team.send('GET', '/signin/oidc');
  const pending = cookies(start.headers['set-cookie'])
    .find((c) => c.startsWith('cdr_console_sso='))!
    .split(';')[0]!;
  const callback = await idp.signIn(String(start.headers.location), who);
  return team.send('GET', `${callback.pathname}${callback.search}`, { headers: { cookie: pending } });
}

describe('single sign-on set up wrong', () => {
  it('an issuer that cannot be reached is found at start: the sign-in page offers passwords only, saying why; the admin is told', async () => {
    enable({ issuer: 'http://127.0.0.1:9' });
    expect(await team.people.checkSso()).toMatchObject({ state: 'problem', code: 'unreachable' });
    const page = await team.send('GET', '/signin');
    expect(page.body).not.toContain('href="/signin/oidc"');
    expect(page.body).toContain(
      'Single sign-on is unavailable right now (the identity provider cannot be used); sign in with your user name and password, or ask an admin.',
    );
    expect(await ssoStatus()).toMatchObject({
      state: 'problem',
      problem: expect.stringMatching(/^discovery at http:\/\/127\.0\.0\.1:9\//) as string,
    });
  });

  it('a rejected client secret: the person is told it is the set-up; the admin sees what to fix', async () => {
    enable({ issuer: idp.issuer, secret: 'not the secret' });
    const back = await ssoAs('bob');
    expect(back.status).toBe(401);
    expect(back.body).toContain('The identity provider refused this server’s credentials');
    expect(await ssoStatus()).toMatchObject({
      state: 'problem',
      problem: expect.stringMatching(/set it again with cli team oidc-secret/) as string,
    });
  });

  it('no groups sent (the scope not asked for): said as the set-up’s, and the refusal names the person in its entry', async () => {
    enable({ issuer: idp.issuer, scopes: ['openid', 'profile', 'email'] });
    const back = await ssoAs('bob');
    expect(back.status).toBe(401);
    expect(back.body).toContain('the identity provider sent no &quot;groups&quot; for you');
    expect(await ssoStatus()).toMatchObject({
      state: 'problem',
      problem: expect.stringMatching(/--oidc-scopes openid,profile,email,groups/) as string,
    });
    const refused = (await team.core.stores.audit.entries()).filter((e) => e.action === 'sign-in:failed').at(-1)!;
    expect(refused).toMatchObject({
      operator: 'bob (single sign-on)',
      target: `oidc:${idp.issuer} u-bob`,
      result: expect.stringMatching(/^failed: no_groups_claim: /) as string,
    });
  });

  it('fixed: the next sign-in works and the admin’s warning goes', async () => {
    enable({ issuer: idp.issuer });
    expect((await ssoAs('bob')).status).toBe(303);
    expect(await ssoStatus()).toMatchObject({ state: 'ok', problem: null });
    expect((await team.send('GET', '/signin')).body).toContain('href="/signin/oidc"');
  });

  it('a single sign-on user’s role comes from their groups: an admin’s change is refused, saying where to make it', async () => {
    const users = (await ada.call('users:list', {})) as { value: { users: { id: string; name: string; role: string }[] } };
    const bob = users.value.users.find((u) => u.name === 'bob')!;
    expect(bob.role).toBe('admin'); // cdr-admin among his groups
    expect(await ada.call('users:update', { id: bob.id, role: 'viewer' })).toMatchObject({
      ok: false,
      error: {
        code: 'INVALID_INPUT',
        message:
          'Bob Okafor signs in with single sign-on: their role comes from their groups at the identity provider at every sign-in. Change their groups there.',
      },
    });
  });
});
