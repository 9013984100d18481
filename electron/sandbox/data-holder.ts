import {
  SignJWT,
  decodeProtectedHeader,
  errors,
  exportJWK,
  generateKeyPair,
  jwtVerify,
  type CryptoKey,
  type JWK,
  type JWTPayload,
} from 'jose';
import { randomBytes, randomUUID } from 'node:crypto';

/**
 * The simulated data holder behind an authorization URI. Visiting the URI "authenticates" the
 * consumer and redirects to the recipient's redirectUri with `response=<JWT>`: an Authorization Code
 * Flow response (JARM) signed with the data holder's key, carrying code, state, iss, aud and exp.
 * It shares the sandbox clock, so advancing the clock expires pending responses.
 */
export interface PendingAuthorization {
  requestId: string;
  consentId: string;
  kind: 'creation' | 'extension';
  state: string;
  redirectUri: string;
  sharingEndDate: string;
  /** Set when the consumer has been through the data holder. */
  code?: string;
  expiresAt: number;
}

export type ResponseCheck = { ok: true; pending: PendingAuthorization; claims: JWTPayload } | { ok: false; reason: string };

export const AUTHORIZATION_TTL_MS = 10 * 60_000;

export class DataHolder {
  readonly issuer: string;
  readonly publicJwk: JWK;
  private readonly pending = new Map<string, PendingAuthorization>();
  private readonly byCode = new Map<string, string>();

  private constructor(
    issuer: string,
    private readonly privateKey: CryptoKey,
    private readonly publicKey: CryptoKey,
    publicJwk: JWK,
    private readonly clientId: string,
    private readonly now: () => number,
  ) {
    this.issuer = issuer;
    this.publicJwk = publicJwk;
  }

  static async create(issuer: string, clientId: string, now: () => number): Promise<DataHolder> {
    const { privateKey, publicKey } = await generateKeyPair('PS256', { extractable: true });
    const jwk = { ...(await exportJWK(publicKey)), kid: randomUUID(), alg: 'PS256', use: 'sig' };
    return new DataHolder(issuer, privateKey as CryptoKey, publicKey as CryptoKey, jwk, clientId, now);
  }

  begin(p: Omit<PendingAuthorization, 'requestId' | 'expiresAt'>): PendingAuthorization {
    const pending = { ...p, requestId: randomBytes(12).toString('base64url'), expiresAt: this.now() + AUTHORIZATION_TTL_MS };
    this.pending.set(pending.requestId, pending);
    return pending;
  }

  authorizeUri(baseUrl: string, p: PendingAuthorization): string {
    return `${baseUrl}/__dataholder/authorize?request_uri=${encodeURIComponent(`urn:sandbox:request:${p.requestId}`)}&client_id=${encodeURIComponent(this.clientId)}&response_type=code&response_mode=jwt`;
  }

  /** The consumer visits the authorize URI: returns where the browser goes next. */
  async authorize(requestUri: string | null): Promise<{ location: string } | { error: string }> {
    const requestId = requestUri?.startsWith('urn:sandbox:request:') ? requestUri.slice('urn:sandbox:request:'.length) : '';
    const p = this.pending.get(requestId);
    if (!p) return { error: 'Unknown or already used authorization request.' };
    if (p.expiresAt <= this.now()) return { error: 'The authorization request has expired; start again from the recipient.' };
    p.code ??= randomBytes(16).toString('base64url');
    this.byCode.set(p.code, p.requestId);
    const response = await this.sign({ code: p.code, state: p.state });
    const target = new URL(p.redirectUri);
    target.searchParams.set('response', response);
    return { location: target.href };
  }

  /** Signs a response JWT; exported for the admin API (tests need expired or foreign responses). */
  async sign(claims: Record<string, unknown>, lifetimeMs = AUTHORIZATION_TTL_MS): Promise<string> {
    const iat = Math.floor(this.now() / 1000);
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'PS256', kid: this.publicJwk.kid!, typ: 'JWT' })
      .setIssuer(this.issuer)
      .setAudience(this.clientId)
      .setIssuedAt(iat)
      .setExpirationTime(Math.floor((this.now() + lifetimeMs) / 1000))
      .sign(this.privateKey);
  }

  /** Checks a response JWT for a consent: signature, expiry, code, consent and state. */
  async check(jwt: unknown, consentId: string | undefined, expectedState?: string): Promise<ResponseCheck> {
    if (typeof jwt !== 'string' || jwt.split('.').length !== 3)
      return { ok: false, reason: 'response is not a JWT (expected three dot-separated parts)' };
    try {
      decodeProtectedHeader(jwt);
    } catch {
      return { ok: false, reason: 'response is not a JWT (its header does not decode)' };
    }
    let claims: JWTPayload;
    try {
      ({ payload: claims } = await jwtVerify(jwt, this.publicKey, {
        issuer: this.issuer,
        audience: this.clientId,
        algorithms: ['PS256'],
        currentDate: new Date(this.now()),
      }));
    } catch (error) {
      if (error instanceof errors.JWTExpired) return { ok: false, reason: 'response JWT has expired' };
      if (error instanceof errors.JWSSignatureVerificationFailed)
        return { ok: false, reason: 'response JWT signature does not verify with the data holder key' };
      if (error instanceof errors.JWTClaimValidationFailed) return { ok: false, reason: `response JWT claim ${error.claim} is wrong` };
      return { ok: false, reason: `response JWT is invalid (${(error as Error).message})` };
    }
    const requestId = typeof claims.code === 'string' ? this.byCode.get(claims.code) : undefined;
    const p = requestId ? this.pending.get(requestId) : undefined;
    if (!p) return { ok: false, reason: 'response code is unknown or already used' };
    if (consentId !== undefined && p.consentId !== consentId) return { ok: false, reason: 'response is for another consent' };
    const state = expectedState ?? p.state;
    if (claims.state !== state) return { ok: false, reason: 'response state does not match the authorization request' };
    return { ok: true, pending: p, claims };
  }

  /** A used code cannot be replayed. */
  consume(p: PendingAuthorization): void {
    this.pending.delete(p.requestId);
    if (p.code) this.byCode.delete(p.code);
  }

  findByCode(code: string): PendingAuthorization | undefined {
    const id = this.byCode.get(code);
    return id ? this.pending.get(id) : undefined;
  }
}
