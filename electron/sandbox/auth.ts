import { SignJWT, createLocalJWKSet, exportJWK, generateKeyPair, jwtVerify, type CryptoKey, type JWK } from 'jose';
import { randomUUID, timingSafeEqual } from 'node:crypto';

/**
 * The sandbox's OAuth2 authorization server: client-credentials grant, access tokens as
 * ES256-signed JWTs carrying scopes and an expiry, verified on every API call.
 */
export const ALL_SCOPES = [
  'consents:read',
  'consents:write',
  'use-cases:read',
  'data-holders:read',
  'tokens:write',
  'data:banking:accounts:read',
  'data:banking:transactions:read',
  'data:banking:payees:read',
  'data:banking:regular_payments:read',
  'data:common:customers:read',
  'data:energy:plans:read',
  'data:energy:accounts:read',
  'data:energy:invoices:read',
  'data:energy:billing:read',
  'data:energy:electricity.servicepoints:read',
  'data:energy:electricity.usage:read',
] as const;

export interface SandboxClient {
  clientId: string;
  clientSecret: string;
}

export interface TokenIssuer {
  issue(
    clientId: string,
    scopes: readonly string[],
  ): Promise<{ access_token: string; token_type: 'Bearer'; expires_in: number; scope: string }>;
  verify(token: string): Promise<{ clientId: string; scopes: Set<string> } | { error: string }>;
  /** Expires every token issued so far (the admin API's stand-in for their lifetime running out); returns how many. */
  expireAll(): number;
  publicJwk: JWK;
}

export async function createTokenIssuer(issuer: string, lifetimeSeconds: number, now: () => number = Date.now): Promise<TokenIssuer> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const kid = randomUUID();
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };
  // Tokens carry the generation they were issued in; expireAll() moves to the next one.
  let generation = 0;
  let issued = 0;
  return {
    publicJwk,
    expireAll() {
      generation++;
      const n = issued;
      issued = 0;
      return n;
    },
    async issue(clientId, scopes) {
      const iat = Math.floor(now() / 1000);
      issued++;
      const access_token = await new SignJWT({ scope: scopes.join(' '), client_id: clientId, gen: generation })
        .setProtectedHeader({ alg: 'ES256', kid, typ: 'at+jwt' })
        .setIssuer(issuer)
        .setAudience(issuer)
        .setSubject(clientId)
        .setJti(randomUUID())
        .setIssuedAt(iat)
        .setExpirationTime(iat + lifetimeSeconds)
        .sign(privateKey as CryptoKey);
      return { access_token, token_type: 'Bearer', expires_in: lifetimeSeconds, scope: scopes.join(' ') };
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, publicKey as CryptoKey, {
          issuer,
          audience: issuer,
          algorithms: ['ES256'],
          currentDate: new Date(now()),
        });
        if (payload.gen !== generation) return { error: 'The access token expired' };
        const scope = typeof payload.scope === 'string' ? payload.scope : '';
        return { clientId: String(payload.sub), scopes: new Set(scope.split(' ').filter(Boolean)) };
      } catch (error) {
        const code = (error as { code?: string }).code;
        return { error: code === 'ERR_JWT_EXPIRED' ? 'The access token expired' : 'The access token is invalid' };
      }
    },
  };
}

/** Constant-time comparison of a presented secret with the registered one. */
export function secretMatches(presented: string, expected: string): boolean {
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Client credentials from HTTP Basic (RFC 6749 §2.3.1, form-encoded parts) or form fields. */
export function readClientCredentials(
  authorization: string | undefined,
  form: URLSearchParams,
): { clientId: string; clientSecret: string; via: 'basic' | 'post' } | null {
  if (authorization?.toLowerCase().startsWith('basic ')) {
    const decoded = Buffer.from(authorization.slice(6).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return null;
    try {
      return {
        clientId: decodeURIComponent(decoded.slice(0, colon)),
        clientSecret: decodeURIComponent(decoded.slice(colon + 1)),
        via: 'basic',
      };
    } catch {
      return null;
    }
  }
  const clientId = form.get('client_id');
  const clientSecret = form.get('client_secret');
  if (clientId && clientSecret) return { clientId, clientSecret, via: 'post' };
  return null;
}

export const JWT_BEARER_ASSERTION = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/**
 * private_key_jwt (RFC 7523): the client signs an assertion with its private key; the sandbox
 * verifies it against the client's registered public JWKs: iss = sub = client id, aud = the token
 * endpoint, not expired, and a jti not seen before (no replay).
 */
export function createAssertionVerifier(clientId: string, jwks: JWK[], tokenEndpoint: string, now: () => number = Date.now) {
  const keySet = createLocalJWKSet({ keys: jwks });
  const seen = new Map<string, number>();
  return async (assertion: string): Promise<{ ok: true } | { ok: false; reason: string }> => {
    try {
      const { payload } = await jwtVerify(assertion, keySet, {
        issuer: clientId,
        subject: clientId,
        audience: tokenEndpoint,
        currentDate: new Date(now()),
        requiredClaims: ['exp', 'jti'],
      });
      const nowS = now() / 1000;
      for (const [jti, exp] of seen) if (exp < nowS) seen.delete(jti);
      if (seen.has(payload.jti!)) return { ok: false, reason: 'client assertion jti already used' };
      seen.set(payload.jti!, payload.exp!);
      return { ok: true };
    } catch (error) {
      return { ok: false, reason: `client assertion rejected: ${(error as Error).message}` };
    }
  };
}
