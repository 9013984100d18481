import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { childScript } from '../helpers/ts-child.js';
import { createKeyFileCipher } from '../../electron/core/secrets/cipher.js';
import { SecretVault } from '../../electron/core/secrets/vault.js';
import { tempDir } from '../helpers/temp.js';

/**
 * Servers sharing a data directory (a team) start at the same moment on an empty one: they end with
 * one master key, one value of each secret created once, and every secret each of them wrote.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const run = (dataDir: string, name: string) =>
  new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, [childScript('test/helpers/vault-child.ts'), dataDir, name], { cwd: root });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${name} exited ${code}: ${err}`))));
  });

describe('the vault, written by several processes at once', () => {
  it('keeps one key, one value of a secret made once, and every secret each wrote', async () => {
    for (let round = 0; round < 3; round++) {
      const dir = tempDir('cdr-vault-race-');
      const names = Array.from({ length: 6 }, (_, i) => `server-${i}`);
      const outs = await Promise.all(names.map((n) => run(dir, n)));
      const shared = new Set(outs.map((o) => (JSON.parse(o) as { shared: string }).shared));
      expect(shared.size, `round ${round}`).toBe(1);
      expect(readFileSync(join(dir, 'keys', 'master.key'))).toHaveLength(32);
      const vault = new SecretVault(dir, createKeyFileCipher(dir));
      expect(vault.get('team.shared')).toBe([...shared][0]);
      for (const n of names) expect(vault.get(`own:${n}`)).toBe(`value of ${n}`);
    }
  }, 120_000);
});
