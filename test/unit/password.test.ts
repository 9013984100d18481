import { describe, expect, it } from 'vitest';
import { hashPassword, PasswordRuleError, SCRYPT, verifyPassword } from '../../electron/core/people/password.js';

describe('passwords (scrypt, memory-hard)', () => {
  it('are stored with their parameters and a salt, never as given; the right one verifies, any other does not', async () => {
    const stored = await hashPassword('correct horse battery');
    expect(stored).toMatch(/^scrypt\$15\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(stored).not.toContain('correct horse');
    // A new salt each time: two users with one password do not share a hash.
    expect(await hashPassword('correct horse battery')).not.toBe(stored);
    expect(await verifyPassword('correct horse battery', stored)).toEqual({ ok: true, rehash: false });
    expect((await verifyPassword('correct horse batterY', stored)).ok).toBe(false);
    expect((await verifyPassword('', stored)).ok).toBe(false);
  });

  it('are refused when too short, too long or padded with spaces, saying why', async () => {
    await expect(hashPassword('short')).rejects.toThrow(PasswordRuleError);
    await expect(hashPassword('short')).rejects.toThrow('at least 12 characters (this one has 5)');
    await expect(hashPassword('x'.repeat(1025))).rejects.toThrow('at most 1024');
    await expect(hashPassword(' twelve chars pw')).rejects.toThrow('does not start or end with a space');
  });

  it('made with other parameters still verify, and ask to be rehashed', async () => {
    const { scryptSync, randomBytes } = await import('node:crypto');
    const salt = randomBytes(16);
    const key = scryptSync('an older password', salt, 32, { N: 2 ** 14, r: 8, p: 1 });
    const old = `scrypt$14$8$1$${salt.toString('base64url')}$${key.toString('base64url')}`;
    expect(await verifyPassword('an older password', old)).toEqual({ ok: true, rehash: true });
    expect(SCRYPT.logN).toBe(15);
  });

  it('never match a stored form this code cannot read, an absent one, or a megabyte of password', async () => {
    expect((await verifyPassword('anything at all', 'md5$abc')).ok).toBe(false);
    expect((await verifyPassword('anything at all', null)).ok).toBe(false);
    expect(
      (await verifyPassword('anything at all', 'scrypt$40$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).ok,
    ).toBe(false);
    expect((await verifyPassword('x'.repeat(1_000_000), await hashPassword('a real password'))).ok).toBe(false);
  });
});
