import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { childScript } from '../helpers/ts-child.js';
import { FIXTURES } from '../helpers/fixtures.js';
import { tempDir } from '../helpers/temp.js';

/** The `normalize` command as analysts run it: a real process, real files, stdin, exit codes. */
const root = fileURLToPath(new URL('../../', import.meta.url));
function normalize(args: string[], stdin?: string) {
  const r = spawnSync(process.execPath, [childScript('electron/cli/normalize.ts'), ...args], {
    cwd: root,
    input: stdin ?? '',
    encoding: 'utf8',
  });
  return {
    code: r.status,
    stdout: r.stdout,
    stderr: r.stderr,
    lines: () =>
      r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
  };
}

describe('npm run normalize', () => {
  it('prints one normalised file as {data, notes}', () => {
    const r = normalize([join(FIXTURES, 'products-real', 'gateway_fee_amount0_plus_balanceRate__298987af__140.json')]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    const fee = out.data.data.fees.find((f: { name: string }) => f.name === 'Rate Lock Fee');
    expect(fee).toMatchObject({ feeMethodUType: 'rateBased', rateBased: { rateType: 'BALANCE', rate: '0.0015' } });
    expect(out.notes.some((n: { path: string }) => n.path.startsWith('data.fees['))).toBe(true);
  });

  it('reads standard input with -', () => {
    const r = normalize(['-'], JSON.stringify({ productId: 'p', fees: [{ name: 'f', feeType: 'EVENT', amount: '2.00' }] }));
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).data.fees[0]).toEqual({
      name: 'f',
      feeType: 'EVENT',
      feeMethodUType: 'fixedAmount',
      fixedAmount: { amount: '2.00' },
    });
  });

  it('prints one JSON line per file of a directory, recursively, in order', () => {
    const dir = tempDir();
    cpSync(join(FIXTURES, 'products-synthetic'), join(dir, 'a'), { recursive: true });
    mkdirSync(join(dir, 'b'));
    cpSync(join(FIXTURES, 'products-cds-1.36', 'credit-card-with-instalments.json'), join(dir, 'b', 'card.json'));
    writeFileSync(join(dir, 'b', 'notes.txt'), 'not json, and not .json either');
    const r = normalize([dir]);
    expect(r.code).toBe(0);
    const lines = r.lines();
    expect(lines.map((l) => l.input.split('/').slice(-2).join('/'))).toEqual([
      'a/mock-data-holder-java_product1.json',
      'a/mock-data-holder-java_product2.json',
      'a/mock-data-holder-java_product3.json',
      'b/card.json',
    ]);
    expect(lines.every((l) => l.ok === true && l.data && Array.isArray(l.notes))).toBe(true);
  });

  it('reports each bad input with its reason and path, processes the rest, and exits 1', () => {
    const dir = tempDir();
    writeFileSync(join(dir, '1-good.json'), JSON.stringify({ productId: 'ok', fees: [] }));
    writeFileSync(join(dir, '2-not-json.json'), '{"productId": "x", ');
    writeFileSync(join(dir, '3-not-object.json'), '"just a string"');
    writeFileSync(join(dir, '4-garbage-list.json'), JSON.stringify({ data: { products: [{ productId: 'a' }, null] } }));
    writeFileSync(
      join(dir, '5-good.json'),
      JSON.stringify({ data: { accountId: 'acc', fees: [{ name: 'f', feeType: 'PERIODIC', amount: '1.00' }] } }),
    );
    const r = normalize([dir, join(dir, 'missing.json')]);
    expect(r.code).toBe(1);
    const byName = Object.fromEntries(r.lines().map((l) => [l.input.split('/').pop(), l]));
    expect(byName['1-good.json']).toMatchObject({ ok: true });
    expect(byName['2-not-json.json']).toMatchObject({ ok: false, error: expect.stringMatching(/^not JSON: /) });
    expect(byName['3-not-object.json']).toMatchObject({ ok: false, error: '(root): expected a JSON object or list, got a string' });
    expect(byName['4-garbage-list.json']).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^data\.products\[1\]: expected a banking product or account/),
    });
    expect(byName['5-good.json']).toMatchObject({ ok: true, data: { data: { accountId: 'acc' } } });
    expect(byName['missing.json']).toMatchObject({ ok: false, error: 'no such file or directory' });
    expect(r.stderr).toContain('4 of 6 inputs failed');
  });

  it('fails a single bad input on stderr with exit 1', () => {
    const r = normalize(['-'], '[1, 2');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^normalize: -: not JSON: /);
  });

  it.each([
    [[], 'normalize: no input given (--help for usage)\n'],
    [['--pretty', 'x.json'], 'normalize: unknown option --pretty (--help for usage)\n'],
  ])('exits 2 on bad usage (%j), saying why in one line', (args, message) => {
    const r = normalize(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(message);
  });

  it('explains itself with --help', () => {
    const r = normalize(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Exit codes: 0 all normalised, 1 some input failed, 2 bad usage/);
  });
});
