import { spawn } from 'node:child_process';
import { CLI } from '../helpers/cli-command.js';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { childScript, type ChildScript } from '../helpers/ts-child.js';
import { tempDir } from '../helpers/temp.js';

/**
 * Bad usage of every command line: exit 2 and one line on stderr saying what is wrong, before
 * anything is opened or called. Real processes, as a script would run them.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const dataDir = tempDir('cdr-usage-');

/** `command`: what follows `node` (a bundled script, test/helpers/ts-child.ts, or the command line's bundle). */
const run = (command: readonly string[], args: string[], input = '') =>
  new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
    const child = spawn(process.execPath, [...command, ...args], {
      cwd: root,
      env: { ...process.env, CDR_CONSOLE_DATA_DIR: '' },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdin.end(input);
    child.on('close', (code) => resolve({ code, out, err }));
  });
const tsx = (script: ChildScript) => [childScript(script)];
const cli = (args: string[], input?: string) => run(CLI, ['--data-dir', dataDir, ...args], input);

/** Exit 2, one line on stderr matching `message`. */
async function usage(p: Promise<{ code: number | null; err: string }>, message: RegExp) {
  const r = await p;
  expect(r.code, r.err).toBe(2);
  expect(r.err.trimEnd().split('\n'), r.err).toHaveLength(1);
  expect(r.err.trimEnd()).toMatch(message);
}

describe('npm run cli: bad usage exits 2 with one line', () => {
  it('ids: empty, a path segment, a slash, whitespace — refused before any call', async () => {
    await usage(cli(['revoke', '', '--reason', 'ticket 1']), /^Consent id "" is not valid: it is empty\.$/m);
    await usage(
      cli(['revoke', '..', '--reason', 'ticket 1']),
      /Consent id "\.\." is not valid: "\.\." is a path segment, not an identifier/,
    );
    await usage(cli(['revoke', 'a/b', '--reason', 'ticket 1']), /Consent id "a\/b" is not valid: it contains "\/"/);
    await usage(cli(['consent', 'two words']), /Consent id "two words" is not valid: it contains U\+0020/);
    await usage(cli(['events', '--consent', '.']), /Consent id "\." is not valid/);
    await usage(cli(['consents', '--use-case', 'ok,..']), /Use case id "\.\." is not valid/);
    await usage(cli(['consents', '--data-holder', 'a\\b']), /Data holder brand id "a\\\\b" is not valid/);
    await usage(
      cli(['consents', '--webhook-failures', 'tomorrow']),
      /--webhook-failures: "tomorrow" is not a period: write any, today, yesterday/,
    );
    await usage(
      cli(['consents', '--webhook-failures', '2026-11-30..2026-11-01']),
      /--webhook-failures: "2026-11-30\.\.2026-11-01" is not a period/,
    );
    // Nothing was opened: no cache was created by any of these.
    expect(existsSync(join(dataDir, 'profiles'))).toBe(false);
  }, 60_000);

  it('reasons: empty, blank, too long', async () => {
    await usage(cli(['revoke', 'c-1', '--reason', '']), /^--reason: A reason is required \(at least 3 characters\)/);
    await usage(cli(['revoke', 'c-1', '--reason', '   ']), /^--reason: A reason is required/);
    await usage(cli(['revoke', 'c-1', '--reason', 'x'.repeat(501)]), /^--reason: The reason is too long/);
    await usage(cli(['bulk-revoke', '--file', '-', '--reason', '']), /^--reason: A reason is required/);
  }, 60_000);

  it('a bulk file with one bad line is refused whole, naming the line; an empty one too', async () => {
    const file = join(dataDir, 'ids.txt');
    writeFileSync(file, '# ids\nc-1\n..\nc-2\n');
    await usage(
      cli(['bulk-revoke', '--file', file, '--reason', 'ticket 1']),
      /ids\.txt, line 3: consent id "\.\." is not valid: .*; nothing was revoked\.$/,
    );
    await usage(cli(['bulk-revoke', '--file', '-', '--reason', 'ticket 1'], '# nothing\n\n'), /^standard input lists no consent id\.$/);
    await usage(cli(['bulk-revoke', '--file', join(dataDir, 'none.txt'), '--reason', 'ticket 1']), /^No such file: /);
  }, 60_000);

  it('unknown options and commands, missing arguments and options, bad values', async () => {
    await usage(cli(['--frobnicate']), /^error: unknown option '--frobnicate' \(--help for usage\)$/);
    await usage(cli(['frobnicate']), /^error: unknown command 'frobnicate' \(--help for usage\)$/);
    await usage(cli(['revoke', '--reason', 'ticket 1']), /^error: missing required argument 'id' \(--help for usage\)$/);
    await usage(cli(['revoke', 'c-1']), /^error: required option '--reason <text>' not specified \(--help for usage\)$/);
    await usage(
      cli(['consents', '--limit', 'lots']),
      /^error: option '--limit <n>' argument 'lots' is invalid\. expected an integer from 1 to 500/,
    );
    await usage(cli(['audit', 'export', '--format', 'xml']), /argument 'xml' is invalid\. Allowed choices are csv, json/);
    await usage(cli(['operator', ' ']), /^A display name has 2 to 80 characters\.$/);
  }, 60_000);

  it('profiles add: a production profile over http, or a file: URL, is refused naming the field', async () => {
    const add = (env: string, tokenUrl: string) =>
      cli(
        [
          'profiles',
          'add',
          '--name',
          'Live',
          '--env',
          env,
          '--base-url',
          'https://api.example/',
          '--token-url',
          tokenUrl,
          '--client-id',
          'c',
          '--client-secret-stdin',
        ],
        'secret',
      );
    await usage(add('prod', 'http://auth.example/token'), /^Invalid profile: tokenUrl: tokenUrl must use https in a production profile/);
    await usage(add('nonprod', 'file:///etc/passwd'), /^Invalid profile: tokenUrl: tokenUrl cannot be a file: URL/);
    const ok = await add('prod', 'http://127.0.0.1:9/token');
    expect(ok.code, ok.err).toBe(0);
  }, 60_000);
});

describe('the other command lines', () => {
  it('sandbox: bad values and unknown options exit 2 in one line', async () => {
    await usage(
      run(tsx('electron/sandbox/cli.ts'), ['--port', 'abc']),
      /^error: option '--port <n>' argument 'abc' is invalid\. expected an integer ≥ 0 \(--help for usage\)$/,
    );
    await usage(run(tsx('electron/sandbox/cli.ts'), ['--bogus']), /^error: unknown option '--bogus'/);
    const help = await run(tsx('electron/sandbox/cli.ts'), ['--help']);
    expect(help.code).toBe(0);
  }, 60_000);

  it('serve: an unknown option or a bad value exits 2 in one line', async () => {
    await usage(run(tsx('electron/host/cli.ts'), ['--bogus']), /^error: unknown option '--bogus' \(--help for usage\)$/);
    await usage(
      run(tsx('electron/host/cli.ts'), ['--sandbox-clock', 'yesterday']),
      /^error: option '--sandbox-clock <iso>' argument 'yesterday' is invalid/,
    );
  }, 60_000);

  it('serve: plain HTTP beyond loopback, or a TLS file that cannot be read, exits 2 in one line naming the options', async () => {
    await usage(
      run(tsx('electron/host/cli.ts'), ['--host', '0.0.0.0']),
      /^error: --host 0\.0\.0\.0 is beyond this machine: plain HTTP there is refused; give --tls-cert FILE and --tls-key FILE \(HTTPS\), or --trust-proxy and --public-url https:\/\/… .* \(--help for usage\)$/,
    );
    await usage(
      run(tsx('electron/host/cli.ts'), ['--host', '192.168.1.20', '--trust-proxy']),
      /^error: --trust-proxy needs --public-url https:/,
    );
    const missing = join(dataDir, 'missing-cert.pem');
    await usage(
      run(tsx('electron/host/cli.ts'), ['--host', '192.168.1.20', '--tls-cert', missing, '--tls-key', missing]),
      new RegExp(`^error: --tls-cert ${missing.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} cannot be read: no such file`),
    );
  }, 60_000);

  it('normalize: a UTF-8 byte order mark is accepted, in a file and on standard input', async () => {
    const product = JSON.stringify({ productId: 'p1', name: 'BOM', productCategory: 'TRANS_AND_SAVINGS_ACCOUNTS' });
    const file = join(dataDir, 'bom.json');
    writeFileSync(file, `\uFEFF${product}`);
    const fromFile = await run(tsx('electron/cli/normalize.ts'), [file]);
    expect(fromFile.code, fromFile.err).toBe(0);
    expect(JSON.parse(fromFile.out).data.productId).toBe('p1');
    const fromStdin = await run(tsx('electron/cli/normalize.ts'), ['-'], `\uFEFF${product}`);
    expect(fromStdin.code, fromStdin.err).toBe(0);
    expect(JSON.parse(fromStdin.out).data.name).toBe('BOM');
  }, 60_000);

  it('normalize: a 100,000-deep product fails with a clear error, not a stack overflow', async () => {
    const file = join(dataDir, 'deep.json');
    writeFileSync(file, `{"productId":"p1","fees":[${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}]}`);
    const r = await run(tsx('electron/cli/normalize.ts'), [file]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/deep\.json: fees\[0\](\.a)+: nested more than 64 levels deep; refused\n$/);
    expect(r.err).not.toMatch(/call stack/);
    expect(readdirSync(dataDir)).toContain('deep.json');
  }, 60_000);
});
