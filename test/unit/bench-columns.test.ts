import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';

const root = join(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'bench-columns-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const row = (name: string, value: number, met: boolean, target = '≤ 10') => ({
  name,
  value,
  unit: 'ms',
  baseline: { what: 'the same from SQL', value: value * 10 },
  ratio: 0.1,
  target,
  met,
  min: value,
  max: value,
  runs: 1,
});

test('bench:columns puts runs on two Node versions side by side, each with its own verdict', () => {
  const a = join(dir, 'a.json');
  const b = join(dir, 'b.json');
  writeFileSync(
    a,
    JSON.stringify({
      machine: '2 × CPU, 24 GiB RAM, Node v24.21.0',
      runs: 1,
      rows: [row('query', 4, true), row('cli', 400, true, '≤ 512')],
    }),
  );
  writeFileSync(
    b,
    JSON.stringify({ machine: '2 × CPU, 24 GiB RAM, Node v22.23.3', runs: 1, rows: [row('query', 12, false), row('only here', 1, true)] }),
  );
  const out = execFileSync(process.execPath, ['--import', 'tsx', 'test/bench/columns.ts', a, b], { cwd: root, encoding: 'utf8' });
  const lines = out.split('\n');
  expect(lines).toContain('| figure | Node v24.21.0 | Node v22.23.3 | target |');
  expect(lines).toContain('| query | 4.00 ms; beside 40.0, ratio 0.10 ✓ | 12.0 ms; beside 120, ratio 0.10 **✗** | ≤ 10 |');
  expect(lines).toContain('| cli | 400 ms; beside 4,000, ratio 0.10 ✓ | — | ≤ 512 |');
  expect(lines).toContain('| only here | — | 1.00 ms; beside 10.0, ratio 0.10 ✓ | ≤ 10 |');
});

test('bench:columns refuses a file that is not a benchmark report', () => {
  const bad = join(dir, 'bad.json');
  writeFileSync(bad, '{"hello": 1}');
  expect(() =>
    execFileSync(process.execPath, ['--import', 'tsx', 'test/bench/columns.ts', bad, bad], { cwd: root, encoding: 'utf8', stdio: 'pipe' }),
  ).toThrow(/not a benchmark report/);
});
