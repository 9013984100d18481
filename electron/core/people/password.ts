import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Passwords of the team server's local users, hashed with scrypt (memory-hard), never stored or
 * logged as given.
 *
 * Parameters: N = 2^15, r = 8, p = 1 (32 MiB of memory and ~0.1 s of one core per hash on our
 * machines), a 16-byte random salt and a 32-byte key. The stored form names them
 * (`scrypt$15$8$1$<salt>$<key>`, base64url), so a later change of parameters still verifies the
 * hashes already stored and rehashes each at its owner's next sign-in.
 */
export const SCRYPT = { logN: 15, r: 8, p: 1, keyLength: 32, saltLength: 16 } as const;

/** The rules a new password must meet: long enough to resist guessing, short enough to hash at once. */
export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 1024;

export class PasswordRuleError extends RangeError {
  constructor(message: string) {
    super(message);
    this.name = 'PasswordRuleError';
  }
}

/** Why a new password is refused, or null. */
export function passwordProblem(password: string): string | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN) return `A password has at least ${PASSWORD_MIN} characters (this one has ${length}).`;
  if (length > PASSWORD_MAX) return `A password has at most ${PASSWORD_MAX} characters.`;
  if (/^\s|\s$/.test(password)) return 'A password does not start or end with a space (a pasted one often does by mistake).';
  return null;
}

function scrypt(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(password.normalize('NFC'), salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

const optionsOf = (logN: number, r: number, p: number): ScryptOptions => ({
  N: 2 ** logN,
  r,
  p,
  // Node refuses more than 32 MiB by default: 128 · N · r is exactly 32 MiB here, plus headroom.
  maxmem: 256 * 2 ** logN * r,
});

/** The stored form of a new password (checked against the rules first). */
export async function hashPassword(password: string): Promise<string> {
  const problem = passwordProblem(password);
  if (problem) throw new PasswordRuleError(problem);
  const salt = randomBytes(SCRYPT.saltLength);
  const key = await scrypt(password, salt, SCRYPT.keyLength, optionsOf(SCRYPT.logN, SCRYPT.r, SCRYPT.p));
  return ['scrypt', SCRYPT.logN, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

const STORED = /^scrypt\$(\d{1,2})\$(\d{1,2})\$(\d{1,2})\$([A-Za-z0-9_-]{16,64})\$([A-Za-z0-9_-]{32,128})$/;

/**
 * Whether `password` is the one `stored` was made from (in constant time), and whether the stored
 * form should be replaced (made with other parameters). A stored form this code cannot read
 * matches nothing. A password over the maximum never matches and is not hashed (no one spends the
 * server's memory with megabytes of password).
 */
export async function verifyPassword(password: string, stored: string | null): Promise<{ ok: boolean; rehash: boolean }> {
  const m = stored === null ? null : STORED.exec(stored);
  if (!m || password.length > PASSWORD_MAX * 4) {
    // The same work as a real check, so a response's time does not tell whether the user exists.
    await scrypt(password.slice(0, PASSWORD_MAX), DUMMY_SALT, SCRYPT.keyLength, optionsOf(SCRYPT.logN, SCRYPT.r, SCRYPT.p));
    return { ok: false, rehash: false };
  }
  const [logN, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (logN < 10 || logN > 20 || r < 1 || r > 32 || p < 1 || p > 16) return { ok: false, rehash: false };
  const expected = Buffer.from(m[5]!, 'base64url');
  const key = await scrypt(password, Buffer.from(m[4]!, 'base64url'), expected.length, optionsOf(logN, r, p));
  const ok = key.length === expected.length && timingSafeEqual(key, expected);
  return { ok, rehash: ok && (logN !== SCRYPT.logN || r !== SCRYPT.r || p !== SCRYPT.p || expected.length !== SCRYPT.keyLength) };
}

const DUMMY_SALT = randomBytes(SCRYPT.saltLength);
