import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { childScript } from '../helpers/ts-child.js';

/** `npm run sandbox` as a user runs it: a real process that says where it listens and stops cleanly. */
const root = fileURLToPath(new URL('../../', import.meta.url));
const cli = [childScript('electron/sandbox/cli.ts')];

describe('npm run sandbox', () => {
  it('prints its URL when ready, serves, and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, [...cli, '--port', '0', '--seed', '4', '--consents', '12'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`no ready line: ${out}`)), 20_000);
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /^Sandbox listening on (http:\/\/127\.0\.0\.1:\d+)$/m.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      });
    });
    const token = await fetch(`${url}/oauth2/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'sandbox-client', client_secret: 'sandbox-secret' }),
    });
    const { access_token } = (await token.json()) as { access_token: string };
    const list = (await (await fetch(`${url}/consents/v2`, { headers: { authorization: `Bearer ${access_token}` } })).json()) as {
      meta: { totalRecords: number };
    };
    expect(list.meta.totalRecords).toBe(12);
    const exit = new Promise<number | null>((r) => child.once('exit', r));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
  });

  it.each([
    [['--consents', 'many'], /--consents <n>' argument 'many' is invalid/],
    [['--faults', '418:p1'], /unknown fault "418"/],
    [['--client-jwk', '/nonexistent.json'], /cannot read a JWK/],
  ])('refuses bad options %j with a clear message', (args, message) => {
    const r = spawnSync(process.execPath, [...cli, ...args], { cwd: root, encoding: 'utf8' });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(message);
  });
});
