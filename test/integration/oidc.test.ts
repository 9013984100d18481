import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomNonce, randomState } from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  openOidc,
  OidcSignInError,
  PENDING_TTL_MS,
  type OidcOptions,
  type OidcSettings,
  type PendingOidcSignIn,
} from '../../electron/core/people/oidc.js';
import { startOidcProvider, type TestOidcClient, type TestOidcProvider } from '../helpers/oidc-provider.js';

/**
 * Single sign-on (issue 20) against a real OpenID provider (oidc-provider on 127.0.0.1): each
 * sign-in is the whole Authorization Code flow with PKCE — discovery, the provider's login and
 * consent, the callback, the code exchanged for real signed tokens, UserInfo — and each refusal
 * is a token or a callback the provider really produced, checked by the module.
 */

const groupRoles = { 'cdr-viewers': 'viewer', 'cdr-compliance': 'compliance', 'cdr-support': 'support', 'cdr-admin': 'admin' } as const;

let idp: TestOidcProvider;

beforeAll(async () => {
  idp = await startOidcProvider();
});
afterAll(() => idp?.close());

const settingsFor = (client: TestOidcClient, more: Partial<OidcSettings> = {}): OidcSettings => ({
  issuer: idp.issuer,
  ...client,
  groupRoles,
  scopes: ['openid', 'profile', 'email', 'groups'],
  ...more,
});

/** The refusal `promise` ends in, or a failure when it resolves. */
async function refusal(promise: Promise<unknown>): Promise<OidcSignInError> {
  const outcome = await promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome)) throw new Error(`expected a refusal, got ${JSON.stringify(outcome.value)}`);
  expect(outcome.error).toBeInstanceOf(OidcSignInError);
  return outcome.error as OidcSignInError;
}

/** Nothing secret in what a person or the log is shown: no code, state, nonce, verifier, secret, token. */
function expectNoSecrets(error: OidcSignInError, ...secrets: string[]) {
  for (const text of [error.message, error.detail]) {
    for (const secret of secrets.filter((s) => s.length >= 8)) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/eyJ[\w-]{10,}/); // a JWT
  }
}

async function signedIn(person: string, settings = settingsFor(idp.clients.main), opts?: OidcOptions) {
  const oidc = await openOidc(settings, opts);
  const { url, pending } = await oidc.begin();
  const callback = await idp.signIn(url, person);
  return { oidc, pending, callback };
}

describe('OIDC sign-in against a real provider', () => {
  it('signs in a person of group cdr-support as support, with their name and user name (claims from UserInfo)', async () => {
    const oidc = await openOidc(settingsFor(idp.clients.main));
    expect(oidc.issuer).toBe(idp.issuer);
    const { url, pending } = await oidc.begin();
    const auth = new URL(url);
    expect(auth.origin).toBe(idp.issuer);
    expect(Object.fromEntries(auth.searchParams)).toMatchObject({
      client_id: 'cdr-console',
      response_type: 'code',
      redirect_uri: idp.clients.main.redirectUri,
      scope: 'openid profile email groups',
      state: pending.state,
      nonce: pending.nonce,
      code_challenge_method: 'S256',
    });
    expect(auth.searchParams.get('code_challenge')).not.toBe(pending.codeVerifier);
    expect(JSON.parse(JSON.stringify(pending))).toEqual(pending);

    const callback = await idp.signIn(url, 'alice');
    expect(callback.searchParams.get('code')).toBeTruthy();
    expect(callback.searchParams.get('iss')).toBe(idp.issuer);
    const identity = await oidc.finish(callback, pending);
    expect(identity).toEqual({
      issuer: idp.issuer,
      subject: 'u-alice',
      userName: 'alice',
      displayName: 'Alice Nguyen',
      role: 'support',
      groups: ['staff', 'cdr-support'],
    });
  });

  it('reads the claims from the ID token when the provider puts them there, and takes admin over support', async () => {
    const other = await startOidcProvider({ claimsInIdToken: true });
    try {
      // Refuse UserInfo: the claims must come from the ID token alone.
      const noUserInfo: typeof fetch = (input, init) =>
        String(input instanceof Request ? input.url : input).includes('/me')
          ? Promise.reject(new TypeError('no userinfo'))
          : fetch(input, init);
      const oidc = await openOidc({ ...settingsFor(other.clients.main), issuer: other.issuer }, { fetch: noUserInfo });
      const { url, pending } = await oidc.begin();
      const identity = await oidc.finish(await other.signIn(url, 'bob'), pending);
      expect(identity).toMatchObject({ subject: 'u-bob', userName: 'bob', displayName: 'Bob Okafor', role: 'admin' });
    } finally {
      await other.close();
    }
  });

  it('signs in with a public client (PKCE only), naming a person without a user name or name by their email', async () => {
    const { oidc, pending, callback } = await signedIn('erin@example.test', settingsFor(idp.clients.public));
    expect(await oidc.finish(callback, pending)).toMatchObject({
      subject: 'u-erin',
      userName: 'erin@example.test',
      displayName: 'erin@example.test',
      role: 'viewer',
    });
  });

  it('accepts a role claim under another name (here email)', async () => {
    const { oidc, pending, callback } = await signedIn(
      'alice',
      settingsFor(idp.clients.main, { roleClaim: 'email', groupRoles: { 'alice@example.test': 'compliance' } }),
    );
    expect(await oidc.finish(callback, pending)).toMatchObject({ role: 'compliance', groups: ['alice@example.test'] });
  });

  it('reads a role claim nested in another claim by its dotted path (realm_access.roles)', async () => {
    const { oidc, pending, callback } = await signedIn('alice', settingsFor(idp.clients.main, { roleClaim: 'realm_access.roles' }));
    expect(await oidc.finish(callback, pending)).toMatchObject({ role: 'compliance', groups: ['offline', 'cdr-compliance'] });
  });
});

describe('OIDC sign-in refusals', () => {
  it('refuses an ID token that has expired by the time it is checked (expired)', async () => {
    // This server's clock two hours ahead of the provider's: the hour-long ID token is past its expiry.
    const { oidc, pending, callback } = await signedIn('alice', undefined, { clockSkewSeconds: 2 * 3600 });
    const error = await refusal(oidc.finish(callback, pending));
    expect(error.code).toBe('expired');
    expect(error.message).toMatch(/expired.*sign in again/);
    expect(error.detail).toMatch(/"exp"/);
    expectNoSecrets(error, callback.searchParams.get('code')!, pending.state, pending.nonce, pending.codeVerifier);
  });

  it('refuses a callback whose sign-in began more than 10 minutes ago (expired), before asking the provider', async () => {
    let now = Date.now();
    const { oidc, pending, callback } = await signedIn('alice', undefined, { now: () => now });
    now += PENDING_TTL_MS + 1000;
    const error = await refusal(oidc.finish(callback, pending));
    expect(error.code).toBe('expired');
    expect(error.message).toMatch(/10 minutes/);
    // The code was not spent: the same callback on time still signs in.
    now -= 2000;
    expect(await oidc.finish(callback, pending)).toMatchObject({ subject: 'u-alice' });
  });

  it('refuses an ID token issued to another client (wrong_audience)', async () => {
    // A token substitution: the provider signs in the person for `other-app`, with this sign-in's
    // nonce and PKCE challenge, and that app's tokens reach this client's callback. The token
    // endpoint's answer is the provider's own (the request carries other-app's credentials).
    const oidc = await openOidc(settingsFor(idp.clients.main), {
      fetch: (input, init) => {
        const url = String(input instanceof Request ? input.url : input);
        if (!url.endsWith('/token')) return fetch(input, init);
        const headers = new Headers(init?.headers);
        const { clientId, clientSecret } = idp.clients.other;
        headers.set('authorization', `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`);
        return fetch(input, { ...init, headers });
      },
    });
    const { url, pending } = await oidc.begin();
    const forOther = new URL(url);
    forOther.searchParams.set('client_id', idp.clients.other.clientId);
    const callback = await idp.signIn(forOther, 'alice');
    const error = await refusal(oidc.finish(callback, pending));
    expect(error.code).toBe('wrong_audience');
    expect(error.message).toMatch(/meant for another application; ask an admin/);
    expect(error.detail).toMatch(/"aud"/);
    expectNoSecrets(error, idp.clients.other.clientSecret!, idp.clients.main.clientSecret!, callback.searchParams.get('code')!);
  });

  it('refuses settings whose client id is not the one the provider issued the code to', async () => {
    const { pending, callback } = await signedIn('alice');
    // The same provider, the other client's credentials: the provider will not give this code to it.
    const wrongClient = await openOidc(settingsFor(idp.clients.other));
    const error = await refusal(wrongClient.finish(callback, pending));
    expect(error.code).toBe('code_rejected');
  });

  it('refuses an ID token whose nonce is not the pending sign-in’s (wrong_nonce)', async () => {
    const { oidc, pending, callback } = await signedIn('alice');
    const error = await refusal(oidc.finish(callback, { ...pending, nonce: randomNonce() }));
    expect(error.code).toBe('wrong_nonce');
    expect(error.message).toMatch(/sign in again/);
    expectNoSecrets(error, pending.nonce, callback.searchParams.get('code')!);
  });

  it('refuses a callback that names another issuer (wrong_issuer: a mix-up of providers)', async () => {
    const { oidc, pending, callback } = await signedIn('alice');
    const mixedUp = new URL(callback);
    mixedUp.searchParams.set('iss', 'https://idp.attacker.test');
    const error = await refusal(oidc.finish(mixedUp, pending));
    expect(error.code).toBe('wrong_issuer');
    expect(error.message).toMatch(/came from another identity provider; ask an admin/);
    expect(error.detail).toMatch(/unexpected "iss"/);
  });

  it('refuses a callback of another sign-in, or without a state (wrong_state)', async () => {
    const oidc = await openOidc(settingsFor(idp.clients.main));
    const mine = await oidc.begin();
    const theirs = await oidc.begin();
    const callback = await idp.signIn(theirs.url, 'alice');
    const error = await refusal(oidc.finish(callback, mine.pending));
    expect(error.code).toBe('wrong_state');
    expect(error.message).toMatch(/does not belong to the sign-in started in this browser/);
    expectNoSecrets(error, mine.pending.state, theirs.pending.state);

    const stateless = new URL(callback);
    stateless.searchParams.delete('state');
    expect((await refusal(oidc.finish(stateless, theirs.pending))).code).toBe('wrong_state');
    expect((await refusal(oidc.finish(callback, { ...theirs.pending, state: randomState() }))).code).toBe('wrong_state');
    expect((await refusal(oidc.finish(callback, null as unknown as PendingOidcSignIn))).code).toBe('wrong_state');
    // None of these spent the code: the right pair still signs in.
    expect(await oidc.finish(callback, theirs.pending)).toMatchObject({ subject: 'u-alice' });
  });

  it('refuses a replayed callback (replayed here; code_rejected by the provider after a restart)', async () => {
    const { oidc, pending, callback } = await signedIn('alice');
    expect(await oidc.finish(callback, pending)).toMatchObject({ role: 'support' });
    const again = await refusal(oidc.finish(callback, pending));
    expect(again.code).toBe('replayed');
    // A restarted server forgets what it finished; the provider refuses a code used twice.
    const restarted = await openOidc(settingsFor(idp.clients.main));
    const error = await refusal(restarted.finish(callback, pending));
    expect(error.code).toBe('code_rejected');
    expect(error.message).toMatch(/used already, or took too long.*sign in again/);
    expectNoSecrets(error, callback.searchParams.get('code')!);
  });

  it('refuses a person whose groups map to no role (unknown_group), saying to ask an admin and naming no group', async () => {
    const { oidc, pending, callback } = await signedIn('carol');
    const error = await refusal(oidc.finish(callback, pending));
    expect(error.code).toBe('unknown_group');
    expect(error.message).toBe(
      'You signed in as carol, but none of your groups gives you a role in the console; ask an admin to add you to one of its groups.',
    );
    expect(error.message + error.detail).not.toContain('marketing');
  });

  it('says the provider sent no groups when the groups scope was not asked for: the set-up, not the person (issue 35)', async () => {
    const { oidc, pending, callback } = await signedIn('alice', settingsFor(idp.clients.main, { scopes: ['openid', 'profile'] }));
    const error = await refusal(oidc.finish(callback, pending));
    expect(error.code).toBe('no_groups_claim');
    // Not "none of your groups gives you a role", which told every person the same wrong thing.
    expect(error.message).toBe(
      'You signed in as alice, but the identity provider sent no "groups" for you, so the console cannot tell your role. This is the single sign-on set-up, not you: ask an admin.',
    );
    expect(error.detail).toMatch(/sent no "groups" claim for .* ask for its scope \(--oidc-scopes openid,profile,email,groups\)/);
  });

  it('says a rejected client secret is the server’s credentials, not an unverifiable answer (issue 35)', async () => {
    const { oidc, pending, callback } = await signedIn('alice', { ...settingsFor(idp.clients.main), clientSecret: 'not the secret' });
    const error = await refusal(oidc.finish(callback, pending));
    expect(error.code).toBe('client_rejected');
    expect(error.message).toMatch(/refused this server’s credentials.*ask an admin to check the single sign-on client secret/);
    expect(error.detail).toMatch(/invalid_client: a wrong or expired client secret; set it again with cli team oidc-secret/);
  });

  it('refuses a person whose groups give both compliance and support but not admin (ambiguous_role)', async () => {
    const { oidc, pending, callback } = await signedIn('dave');
    const error = await refusal(oidc.finish(callback, pending));
    expect(error.code).toBe('ambiguous_role');
    expect(error.message).toMatch(/both the compliance and the support roles.*ask an admin/);
  });

  it('explains a provider error in the callback (access_denied)', async () => {
    const oidc = await openOidc(settingsFor(idp.clients.main));
    const { url, pending } = await oidc.begin();
    const callback = await idp.signIn(url, { decline: true });
    expect(callback.searchParams.get('error')).toBe('access_denied');
    const error = await refusal(oidc.finish(callback, pending));
    expect(error.code).toBe('provider_error');
    expect(error.message).toBe(
      'The identity provider did not sign you in (access denied): you declined, or it does not allow you into the console.',
    );
    expect(error.detail).toMatch(/access_denied: End-User aborted interaction/);
    // An error with another sign-in's state is not believed.
    const forged = new URL(callback);
    forged.searchParams.set('state', randomState());
    expect((await refusal(oidc.finish(forged, pending))).code).toBe('wrong_state');
  });
});

describe('opening single sign-on', () => {
  it('says so clearly when the issuer is unreachable', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const issuer = `http://127.0.0.1:${port}`;
    const error = await refusal(openOidc({ ...settingsFor(idp.clients.main), issuer }));
    expect(error.code).toBe('unreachable');
    expect(error.message).toBe(
      `The identity provider at ${issuer}/ could not be reached; check the issuer URL and that this server can reach it.`,
    );
    expect(error.detail).toMatch(/ECONNREFUSED/);
    expectNoSecrets(error, idp.clients.main.clientSecret!);
  });

  it('says so when the issuer is not an OpenID provider, or names another issuer', async () => {
    const web = createServer((req, res) => {
      if (req.url?.startsWith('/moved/')) {
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ issuer: idp.issuer, authorization_endpoint: `${idp.issuer}/auth` }));
      } else res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
    });
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    web.unref();
    try {
      const base = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
      const notOidc = await refusal(openOidc({ ...settingsFor(idp.clients.main), issuer: base }));
      expect(notOidc.code).toBe('not_a_provider');
      expect(notOidc.message).toMatch(/does not answer as an OpenID provider/);
      const mismatch = await refusal(openOidc({ ...settingsFor(idp.clients.main), issuer: `${base}/moved` }));
      expect(mismatch.code).toBe('not_a_provider');
      expect(mismatch.message).toMatch(/names a different issuer/);
    } finally {
      web.closeAllConnections();
      await new Promise((resolve) => web.close(resolve));
    }
  });

  it('refuses settings that cannot work, before any request', async () => {
    const misconfigured = async (more: Partial<OidcSettings>) =>
      (await refusal(openOidc({ ...settingsFor(idp.clients.main), ...more }))).message;
    expect(await misconfigured({ issuer: 'http://idp.example.test' })).toMatch(/must be an https URL/);
    expect(await misconfigured({ issuer: 'not a url' })).toMatch(/not a URL/);
    expect(await misconfigured({ groupRoles: {} })).toMatch(/no group is mapped/);
    expect(await misconfigured({ groupRoles: { staff: 'owner' as never } })).toMatch(/"staff" maps to "owner", not a role/);
  });
});
