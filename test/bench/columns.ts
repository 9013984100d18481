/**
 * One table from benchmark runs made on different Node versions (or machines): a column per run,
 * each figure beside its own run's baseline, ratio and verdict, so both runtimes' figures read
 * side by side.
 *
 *   npm run -s bench:columns -- test-results/bench-node24.json test-results/bench-node22.json > table.md
 *
 * Rows are matched by name (a figure whose name carries a count, such as the records synced,
 * matches when both runs measured the same data); a figure one run lacks shows as —.
 */
import { readFileSync } from 'node:fs';
import { num, type Row } from './stats.js';

interface Report {
  machine: string;
  runs: number;
  rows: Row[];
}

const files = process.argv.slice(2);
if (files.length < 2) {
  process.stderr.write('usage: npm run -s bench:columns -- A.json B.json [C.json …]  (reports written by npm run bench --out)\n');
  process.exit(2);
}
const reports = files.map((f) => {
  const r = JSON.parse(readFileSync(f, 'utf8')) as Partial<Report>;
  if (!Array.isArray(r.rows) || typeof r.machine !== 'string') throw new Error(`${f}: not a benchmark report (no rows or machine)`);
  return r as Report;
});
const nodeOf = (r: Report) => /Node (v[\d.]+)/.exec(r.machine)?.[1] ?? r.machine;

const names: string[] = [];
for (const r of reports) for (const row of r.rows) if (!names.includes(row.name)) names.push(row.name);

const cell = (row: Row | undefined) => {
  if (!row) return '—';
  const verdict = row.met === null ? '' : row.met ? ' ✓' : ' **✗**';
  const base = row.baseline ? `; beside ${num(row.baseline.value)}, ratio ${num(row.ratio)}` : '';
  return `${num(row.value)} ${row.unit}${base}${verdict}`;
};

const out = [
  ...reports.map((r, i) => `${String.fromCharCode(65 + i)}: ${r.machine}; median of ${r.runs} run(s).`),
  '',
  `| figure | ${reports.map((r) => `Node ${nodeOf(r)}`).join(' | ')} | target |`,
  `|---|${reports.map(() => '---|').join('')}---|`,
  ...names.map((name) => {
    const rows = reports.map((r) => r.rows.find((x) => x.name === name));
    // A target measured in the run (the command line's: npm's own start + 0.3 s) can differ per run.
    const target = [...new Set(rows.map((x) => x?.target).filter(Boolean))].join(' / ') || '—';
    return `| ${name} | ${rows.map(cell).join(' | ')} | ${target} |`;
  }),
];
process.stdout.write(`${out.join('\n')}\n`);
