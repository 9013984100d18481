import * as client from 'openid-client';
import { timingSafeEqual } from 'node:crypto';
import { isRole, type Role } from '../../../shared/ipc/roles.js';
import type { OidcErrorCode } from './sso-codes.js';

export { ADMIN_PROBLEMS, type OidcErrorCode } from './sso-codes.js';

/**
 * Single sign-on for a team server (issue 20): the organisation's OpenID provider signs staff in
 * with the Authorization Code flow and PKCE (S256), through `openid-client`; a claim of theirs
 * (default `groups`) maps to a console role. This module knows no HTTP server: the host wires it
 * into its routes.
 *
 *     const oidc = await openOidc(settings);              // at start: discovery (throws OidcSignInError)
 *     // GET /signin/oidc
 *     const { url, pending } = await oidc.begin();        // keep `pending` server-side (≤ 10 min) under a
 *                                                         // random, HttpOnly, SameSite=Lax cookie; 303 to `url`
 *     // GET /signin/oidc/callback?code=…&state=…&iss=…
 *     const identity = await oidc.finish(new URL(req.url, settings.redirectUri), pending); // delete `pending` first
 *
 * What is checked (each refusal an OidcSignInError with a `code`, a `message` for the person
 * signing in, and a `detail` for the server's log — neither carries a token, a code or a secret):
 * - the pending sign-in is at most PENDING_TTL_MS old (`expired`), and each one finishes once
 *   in this process (`replayed`; the provider also refuses a code used twice: `code_rejected`);
 * - the callback's `state` is the pending one (`wrong_state`), compared before anything else is
 *   believed, then its `error` (`provider_error`: the person declined, the provider refused);
 * - by openid-client: the `iss` parameter of the callback (RFC 9207) when the provider sends it, the
 *   code exchanged with the PKCE verifier, and the ID token's signature (the provider's keys from
 *   discovery), issuer (`wrong_issuer`), audience and authorised party (`wrong_audience`), nonce
 *   (`wrong_nonce`), expiry and issue time (`expired`, 30 s tolerance, `clockSkewSeconds` for a
 *   server whose clock is known to be off); anything else wrong with the token is `invalid_token`;
 * - the role claim maps to exactly one role (`unknown_group`, `ambiguous_role`).
 *
 * Roles from several groups: admin wins over everything, and compliance or support over viewer;
 * compliance and support are different powers, not one above the other, so a person whose groups
 * give both (and not admin) is refused (`ambiguous_role`) rather than given one of them by an
 * order nobody chose: an admin fixes the groups or the mapping.
 *
 * The claims come from the ID token; when the role claim, `name` or `preferred_username`/`email`
 * are not in it (many providers put them in the UserInfo response only), from UserInfo, whose
 * subject must be the ID token's. The role claim may be a list of strings or one string; a
 * name with dots (`realm_access.roles`) is read as a path when no claim has that exact name.
 *
 * The issuer must be https, but for a loopback address (http://127.0.0.1:…, http://localhost:…:
 * tests, a provider on the same machine). With a `clientSecret` the client authenticates with
 * client_secret_basic (or client_secret_post when the provider supports only that); without one it
 * is a public client and PKCE alone binds the code to this sign-in.
 */

export interface OidcSettings {
  /** The provider's issuer identifier: https, or http on a loopback address. */
  issuer: string;
  clientId: string;
  /** From the server's vault; absent: a public client (PKCE only). */
  clientSecret?: string;
  /** The team server's /signin/oidc/callback, exactly as registered at the provider. */
  redirectUri: string;
  /** The claim whose values name the person's groups. Default `groups`. */
  roleClaim?: string;
  /** Claim value → role. */
  groupRoles: Record<string, Role>;
  /** Scopes to ask for. Default openid, profile, email; some providers need e.g. `groups` too. */
  scopes?: readonly string[];
}

export interface OidcOptions {
  /** Seconds to add to this server's clock when checking token times (a clock known to be off). */
  clockSkewSeconds?: number;
  /** Seconds to wait for each request to the provider. Default 10. */
  timeoutSeconds?: number;
  /** Requests to the provider go through this (tests). */
  fetch?: typeof fetch;
  /** Milliseconds since the epoch (tests). */
  now?: () => number;
}

/** What `begin()` hands the host to keep, server-side, until the callback: JSON-serialisable. */
export interface PendingOidcSignIn {
  state: string;
  nonce: string;
  codeVerifier: string;
  /** Milliseconds since the epoch. */
  createdAt: number;
}

export interface OidcIdentity {
  issuer: string;
  /** The provider's `sub`: with `issuer`, the person's stable key (names and emails change). */
  subject: string;
  userName: string;
  displayName: string;
  role: Role;
  /** Every value of the role claim, mapped or not. */
  groups: string[];
}

export class OidcSignInError extends Error {
  override readonly name = 'OidcSignInError';
  /**
   * @param message a sentence for the person signing in (or, at open, the admin): no secrets, no tokens.
   * @param detail what went wrong technically, for the server's log: no secrets, no tokens, no codes.
   */
  constructor(
    readonly code: OidcErrorCode,
    message: string,
    readonly detail: string = message,
    /** Who the provider said it was, when it got that far: the refusal's audit entry names them. */
    readonly who?: { issuer: string; subject: string; userName: string },
  ) {
    super(message);
  }
}

export interface OidcClient {
  /** The issuer as discovered. */
  readonly issuer: string;
  /** The provider's authorization URL to send the person to, and what to keep until the callback. */
  begin(): Promise<{ url: string; pending: PendingOidcSignIn }>;
  /**
   * The callback: its URL (only its query is read; the redirect URI of the settings is the one
   * sent to the provider) or its query. Resolves to the person, or throws OidcSignInError.
   */
  finish(callback: URL | URLSearchParams, pending: PendingOidcSignIn): Promise<OidcIdentity>;
  /**
   * Where to send the browser so the provider ends its own session too (OpenID Connect RP-Initiated
   * Logout: its `end_session_endpoint`, with the client id and where to come back to, which must be
   * registered at the provider), or null when the provider has none: a person signed out of the
   * console would otherwise stay signed in there, and on a shared computer the next person to press
   * the button would be them.
   */
  endSessionUrl(postLogoutRedirectUri: string): string | null;
}

/** How long a sign-in may take from begin() to the callback. */
export const PENDING_TTL_MS = 10 * 60_000;
const DEFAULT_SCOPES = ['openid', 'profile', 'email'];
const ASK_AN_ADMIN = 'ask an admin to check the single sign-on settings';

const isLoopback = (url: URL) => ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname) || /^127\.\d+\.\d+\.\d+$/.test(url.hostname);

function checkSettings(settings: OidcSettings): URL {
  const bad = (what: string) => new OidcSignInError('misconfigured', `Single sign-on is misconfigured: ${what}.`);
  let issuer: URL;
  try {
    issuer = new URL(settings.issuer);
  } catch {
    throw bad('the issuer is not a URL');
  }
  if (issuer.protocol !== 'https:' && !(issuer.protocol === 'http:' && isLoopback(issuer)))
    throw bad(`the issuer ${issuer.href} must be an https URL (http only on this machine: 127.0.0.1 or localhost)`);
  try {
    new URL(settings.redirectUri);
  } catch {
    throw bad('the redirect URI is not a URL');
  }
  if (!settings.clientId) throw bad('the client id is empty');
  const claim = settings.roleClaim ?? 'groups';
  if (!claim) throw bad('the role claim is empty');
  const entries = Object.entries(settings.groupRoles ?? {});
  if (entries.length === 0) throw bad('no group is mapped to a role');
  for (const [group, role] of entries)
    if (!isRole(role))
      throw bad(`the group ${JSON.stringify(group.slice(0, 80))} maps to ${JSON.stringify(String(role).slice(0, 40))}, not a role`);
  return issuer;
}

/** Discovers the provider and returns the sign-in's two steps. Throws OidcSignInError (unreachable, not_a_provider, misconfigured). */
export async function openOidc(settings: OidcSettings, opts: OidcOptions = {}): Promise<OidcClient> {
  const issuerUrl = checkSettings(settings);
  const now = opts.now ?? Date.now;
  const timeout = opts.timeoutSeconds ?? 10;
  const insecure = issuerUrl.protocol === 'http:';
  const metadata: Partial<client.ClientMetadata> = {
    client_id: settings.clientId,
    redirect_uris: [settings.redirectUri],
    response_types: ['code'],
    [client.clockSkew]: opts.clockSkewSeconds ?? 0,
  };
  if (settings.clientSecret) metadata.client_secret = settings.clientSecret;
  // The authentication is picked once the provider's metadata is known; discovery needs none.
  let auth: client.ClientAuth = client.None();
  const authenticate: client.ClientAuth = (...args) => auth(...args);

  let config: client.Configuration;
  try {
    config = await client.discovery(issuerUrl, settings.clientId, metadata, authenticate, {
      timeout,
      execute: insecure ? [client.allowInsecureRequests] : [],
      ...(opts.fetch ? { [client.customFetch]: opts.fetch as client.CustomFetch } : {}),
    });
  } catch (error) {
    throw discoveryError(issuerUrl, error);
  }
  const server = config.serverMetadata();
  if (settings.clientSecret) {
    const methods = server.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
    auth =
      !methods.includes('client_secret_basic') && methods.includes('client_secret_post')
        ? client.ClientSecretPost(settings.clientSecret)
        : client.ClientSecretBasic(settings.clientSecret);
  }
  const scope = [...new Set(['openid', ...(settings.scopes ?? DEFAULT_SCOPES)])].join(' ');
  const roleClaim = settings.roleClaim ?? 'groups';
  const groupRoles = new Map(Object.entries(settings.groupRoles));
  // The states finished in this process, until their pending sign-in would have expired anyway.
  const finished = new Map<string, number>();

  return {
    issuer: server.issuer,

    endSessionUrl(postLogoutRedirectUri) {
      if (!server.end_session_endpoint) return null;
      return client.buildEndSessionUrl(config, { post_logout_redirect_uri: postLogoutRedirectUri }).href;
    },

    async begin() {
      const pending: PendingOidcSignIn = {
        state: client.randomState(),
        nonce: client.randomNonce(),
        codeVerifier: client.randomPKCECodeVerifier(),
        createdAt: now(),
      };
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: settings.redirectUri,
        scope,
        state: pending.state,
        nonce: pending.nonce,
        code_challenge: await client.calculatePKCECodeChallenge(pending.codeVerifier),
        code_challenge_method: 'S256',
      });
      return { url: url.href, pending };
    },

    async finish(callback, pending) {
      const params = new URLSearchParams(callback instanceof URL ? callback.search : callback);
      const at = now();
      if (!isPending(pending))
        throw new OidcSignInError('wrong_state', 'This sign-in was not started here, or has ended; sign in again.', 'no pending sign-in');
      if (!(at - pending.createdAt <= PENDING_TTL_MS && at >= pending.createdAt - 60_000))
        throw new OidcSignInError(
          'expired',
          'The sign-in took too long (more than 10 minutes); sign in again.',
          `pending sign-in started ${Math.round((at - pending.createdAt) / 1000)} s ago`,
        );
      for (const [state, until] of finished) if (until < at) finished.delete(state);
      if (finished.has(pending.state))
        throw new OidcSignInError('replayed', 'This sign-in has already been used; sign in again.', 'callback for a finished sign-in');
      const state = params.get('state');
      if (state === null || !sameString(state, pending.state))
        throw new OidcSignInError(
          'wrong_state',
          'This sign-in answer does not belong to the sign-in started in this browser; sign in again.',
          state === null ? 'callback without state' : 'callback state is not the pending one',
        );
      // Believed only now that the state is this sign-in's.
      const error = params.get('error');
      if (error !== null) throw providerError(error, params.get('error_description'));
      finished.set(pending.state, pending.createdAt + PENDING_TTL_MS);

      const currentUrl = new URL(settings.redirectUri);
      currentUrl.search = params.toString();
      let claims: Record<string, unknown>;
      let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
      try {
        tokens = await client.authorizationCodeGrant(config, currentUrl, {
          pkceCodeVerifier: pending.codeVerifier,
          expectedState: pending.state,
          expectedNonce: pending.nonce,
          idTokenExpected: true,
        });
        claims = { ...tokens.claims()! };
      } catch (e) {
        throw grantError(e);
      }
      const subject = String(claims.sub);
      const needs = (name: string) => readClaim(claims, name) === undefined;
      if (
        server.userinfo_endpoint &&
        tokens.access_token &&
        (needs(roleClaim) || needs('name') || (needs('preferred_username') && needs('email')))
      ) {
        try {
          const info = await client.fetchUserInfo(config, tokens.access_token, subject);
          // The ID token's claims win; UserInfo fills in what it lacks.
          const merged: Record<string, unknown> = { ...info, ...claims };
          if (readClaim(merged, roleClaim) === undefined) merged[roleClaim] = readClaim(info, roleClaim);
          claims = merged;
        } catch (e) {
          throw grantError(e, 'userinfo');
        }
      }
      return identityOf(server.issuer, subject, claims, roleClaim, groupRoles);
    },
  };
}

function isPending(p: unknown): p is PendingOidcSignIn {
  const o = p as PendingOidcSignIn | null;
  return (
    typeof o === 'object' &&
    o !== null &&
    typeof o.state === 'string' &&
    o.state.length > 0 &&
    typeof o.nonce === 'string' &&
    typeof o.codeVerifier === 'string' &&
    typeof o.createdAt === 'number' &&
    Number.isFinite(o.createdAt)
  );
}

function sameString(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A claim by its exact name, or else by its dotted path (`realm_access.roles`). */
function readClaim(claims: Record<string, unknown>, name: string): unknown {
  if (claims[name] !== undefined) return claims[name];
  if (!name.includes('.')) return undefined;
  let at: unknown = claims;
  for (const part of name.split('.')) {
    if (typeof at !== 'object' || at === null || Array.isArray(at)) return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return at;
}

/** A name from the provider, made safe to show and store: no control characters, at most 200 characters. */
function cleanName(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  // eslint-disable-next-line no-control-regex
  const clean = value.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ').trim();
  return clean ? clean.slice(0, 200) : undefined;
}

const RANK: Record<Role, number> = { viewer: 0, compliance: 1, support: 1, admin: 2 };

function identityOf(
  issuer: string,
  subject: string,
  claims: Record<string, unknown>,
  roleClaim: string,
  groupRoles: Map<string, Role>,
): OidcIdentity {
  const raw = readClaim(claims, roleClaim);
  const groups = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).filter((g): g is string => typeof g === 'string');
  const userName = cleanName(claims.preferred_username) ?? cleanName(claims.email) ?? subject;
  const displayName = cleanName(claims.name) ?? userName;
  const roles = [...new Set(groups.flatMap((g) => (groupRoles.has(g) ? [groupRoles.get(g)!] : [])))];
  const who = { issuer, subject, userName };
  // No groups at all is the set-up's doing (the scope not asked for, or the claim not mapped at the
  // provider), not the person's: every person would be told the same (issue 35).
  if (raw === undefined)
    throw new OidcSignInError(
      'no_groups_claim',
      `You signed in as ${userName}, but the identity provider sent no "${roleClaim}" for you, so the console cannot tell your role. This is the single sign-on set-up, not you: ask an admin.`,
      `the identity provider sent no "${roleClaim}" claim for ${issuer} ${subject} (in the ID token or UserInfo): ask for its scope (--oidc-scopes openid,profile,email,${roleClaim === 'groups' ? 'groups' : '…'}) or map the claim at the provider`,
      who,
    );
  if (roles.length === 0)
    throw new OidcSignInError(
      'unknown_group',
      `You signed in as ${userName}, but none of your groups gives you a role in the console; ask an admin to add you to one of its groups.`,
      `${issuer} ${subject}: ${groups.length} "${roleClaim}" values, none mapped to a role`,
      who,
    );
  const top = Math.max(...roles.map((r) => RANK[r]));
  const best = roles.filter((r) => RANK[r] === top);
  if (best.length > 1)
    throw new OidcSignInError(
      'ambiguous_role',
      `You signed in as ${userName}, but your groups give you both the ${best.join(' and the ')} roles, and the console gives each person one; ask an admin to sort out your groups.`,
      `${issuer} ${subject}: groups map to ${best.join(' and ')}`,
      who,
    );
  return { issuer, subject, userName, displayName, role: best[0]!, groups };
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${describe(error.cause)}` : '';
  const code = (error as { code?: unknown }).code;
  return `${error.message}${typeof code === 'string' ? ` (${code})` : ''}${cause}`;
}

function discoveryError(issuer: URL, error: unknown): OidcSignInError {
  const code = (error as { code?: unknown }).code;
  if (error instanceof TypeError || code === 'OAUTH_TIMEOUT' || code === 'OAUTH_ABORT')
    return new OidcSignInError(
      'unreachable',
      `The identity provider at ${issuer.href} could not be reached; check the issuer URL and that this server can reach it.`,
      `discovery at ${issuer.href}: ${describe(error)}`,
    );
  if (code === 'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED')
    return new OidcSignInError(
      'not_a_provider',
      `The identity provider at ${issuer.href} names a different issuer in its metadata; set the issuer exactly as the provider names itself.`,
      `discovery at ${issuer.href}: ${describe(error)}`,
    );
  return new OidcSignInError(
    'not_a_provider',
    `${issuer.href} does not answer as an OpenID provider (no valid /.well-known/openid-configuration); check the issuer URL.`,
    `discovery at ${issuer.href}: ${describe(error)}`,
  );
}

function providerError(error: string, description: string | null): OidcSignInError {
  const said = cleanName(error)?.slice(0, 60) ?? 'error';
  const why = cleanName(description)?.slice(0, 200);
  const message =
    error === 'access_denied'
      ? 'The identity provider did not sign you in (access denied): you declined, or it does not allow you into the console.'
      : error === 'login_required' || error === 'interaction_required' || error === 'consent_required'
        ? 'The identity provider needs you to sign in there first; sign in again.'
        : error === 'temporarily_unavailable' || error === 'server_error'
          ? 'The identity provider could not sign you in just now; try again in a moment.'
          : `The identity provider refused the sign-in (${said}); ${ASK_AN_ADMIN}.`;
  return new OidcSignInError('provider_error', message, `provider answered ${said}${why ? `: ${why}` : ''}`);
}

function grantError(error: unknown, step: 'token' | 'userinfo' = 'token'): OidcSignInError {
  const detail = `${step}: ${describe(error)}`;
  const code = (error as { code?: unknown }).code;
  const inner = (error as { cause?: { cause?: { claim?: unknown } } }).cause?.cause?.claim;
  if (error instanceof TypeError || code === 'OAUTH_TIMEOUT' || code === 'OAUTH_ABORT')
    return new OidcSignInError(
      'unreachable',
      'The identity provider could not be reached to finish the sign-in; try again in a moment.',
      detail,
    );
  // The provider refused this server's own credentials (its client secret): the set-up, not the person.
  if (
    (error instanceof client.ResponseBodyError && error.error === 'invalid_client') ||
    (error instanceof client.WWWAuthenticateChallengeError && error.status === 401)
  )
    return new OidcSignInError(
      'client_rejected',
      'The identity provider refused this server’s credentials, so single sign-on cannot finish. This is the set-up, not you: ask an admin to check the single sign-on client secret.',
      `${detail}: the provider refused the client's authentication (invalid_client: a wrong or expired client secret; set it again with cli team oidc-secret)`,
    );
  if (error instanceof client.ResponseBodyError) {
    if (error.error === 'invalid_grant')
      return new OidcSignInError(
        'code_rejected',
        'The identity provider no longer accepts this sign-in (it was used already, or took too long); sign in again.',
        detail,
      );
    return new OidcSignInError(
      'provider_error',
      `The identity provider refused to finish the sign-in (${cleanName(error.error)?.slice(0, 60)}); ${ASK_AN_ADMIN}.`,
      detail,
    );
  }
  if (error instanceof client.AuthorizationResponseError)
    return new OidcSignInError('provider_error', `The identity provider refused the sign-in; ${ASK_AN_ADMIN}.`, detail);
  if (code === 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED')
    return new OidcSignInError(
      'expired',
      "The identity provider's answer has expired (or is not valid yet); sign in again. If it keeps happening, ask an admin to check this server's clock.",
      detail,
    );
  if (code === 'OAUTH_JWT_CLAIM_COMPARISON_FAILED' || code === 'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED') {
    if (inner === 'aud' || inner === 'azp')
      return new OidcSignInError(
        'wrong_audience',
        `The identity provider's answer was meant for another application; ${ASK_AN_ADMIN}.`,
        detail,
      );
    if (inner === 'nonce')
      return new OidcSignInError(
        'wrong_nonce',
        'This sign-in answer does not belong to the sign-in started in this browser; sign in again.',
        detail,
      );
    if (inner === 'iss')
      return new OidcSignInError('wrong_issuer', `The sign-in answer came from another identity provider; ${ASK_AN_ADMIN}.`, detail);
  }
  if (code === 'OAUTH_INVALID_RESPONSE' && /"iss"/.test(describe(error)))
    return new OidcSignInError('wrong_issuer', `The sign-in answer came from another identity provider; ${ASK_AN_ADMIN}.`, detail);
  return new OidcSignInError('invalid_token', `The identity provider's answer could not be verified; ${ASK_AN_ADMIN}.`, detail);
}
