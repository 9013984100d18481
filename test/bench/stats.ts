import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';

/** Order statistics of repeated measurements (nearest-rank quantiles). */
export interface Spread {
  median: number;
  min: number;
  max: number;
  p95: number;
  n: number;
}

export function quantile(values: readonly number[], q: number): number {
  if (!values.length) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

export function spread(values: readonly number[]): Spread {
  return {
    median: quantile(values, 0.5),
    min: Math.min(...values),
    max: Math.max(...values),
    p95: quantile(values, 0.95),
    n: values.length,
  };
}

/** One figure of a benchmark's report (test-results/bench*.json): the median of the runs, beside its baseline. */
export interface Row {
  name: string;
  /** The median of the runs. */
  value: number;
  unit: string;
  baseline: { what: string; value: number } | null;
  ratio: number | null;
  target: string | null;
  met: boolean | null;
  min: number;
  max: number;
  runs: number;
  note?: string;
}

export interface RowOptions {
  baseline?: { what: string; values: number[] };
  target?: { on: 'value' | 'ratio'; op: '≥' | '≤'; limit: number };
  note?: string;
}

/**
 * A row: `values` are the runs; the ratio is value / baseline; the target applies to the ratio
 * when it names one ("ratio ≥ 0.6"), else to the value ("≤ 10 ms").
 */
export function rowOf(name: string, values: number[], unit: string, o: RowOptions = {}): Row {
  const v = spread(values);
  const base = o.baseline ? spread(o.baseline.values).median : undefined;
  const ratio = base !== undefined && base !== 0 ? v.median / base : null;
  const subject = o.target?.on === 'ratio' ? ratio : v.median;
  const met = o.target && subject !== null ? (o.target.op === '≥' ? subject >= o.target.limit : subject <= o.target.limit) : null;
  return {
    name,
    value: v.median,
    unit,
    baseline: o.baseline && base !== undefined ? { what: o.baseline.what, value: base } : null,
    ratio,
    target: o.target ? `${o.target.on === 'ratio' ? 'ratio ' : ''}${o.target.op} ${Number(o.target.limit.toFixed(2))}` : null,
    met,
    min: v.min,
    max: v.max,
    runs: v.n,
    ...(o.note ? { note: o.note } : {}),
  };
}

/** Records rows in the order measured. */
export type RecordRow = (name: string, values: number[], unit: string, o?: RowOptions) => void;

export const fmtN = (n: number) => n.toLocaleString('en-AU');
export const num = (n: number | null | undefined) =>
  n === null || n === undefined || Number.isNaN(n) ? '—' : Math.abs(n) >= 100 ? fmtN(Math.round(n)) : n >= 10 ? n.toFixed(1) : n.toFixed(2);

/** This machine, as the reports name it. */
export function machine(): string {
  return `${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}`;
}

/**
 * Prints the rows, and writes them to `out` (JSON: `{machine, …about, rows}`) and as a table to
 * the .md beside it. `data` says what was measured (the sizes), `runs` how many runs each figure is the median of.
 */
export function writeReport(rows: Row[], o: { out: string; data: string; runs: number; about: Record<string, unknown> }): void {
  const m = machine();
  console.log(`\n${m}; ${o.data}; median of ${o.runs} run(s) [min–max]\n`);
  for (const r of rows) {
    const verdict = r.met === null ? '' : r.met ? '  ✓' : '  ✗ MISSED';
    console.log(
      `${r.name}\n  ${num(r.value)} ${r.unit} [${num(r.min)}–${num(r.max)}]${r.baseline ? `   baseline ${num(r.baseline.value)} (${r.baseline.what})` : ''}${r.ratio !== null ? `   ratio ${num(r.ratio)}` : ''}${r.target ? `   target ${r.target}${verdict}` : ''}${r.note ? `\n  ${r.note}` : ''}`,
    );
  }
  const md = [
    `Machine: ${m}. ${o.data}. Median of ${o.runs} run(s), [min–max].`,
    '',
    '| figure | now | baseline (same run) | ratio | target | met |',
    '|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.name} | ${num(r.value)} ${r.unit} [${num(r.min)}–${num(r.max)}] | ${r.baseline ? `${num(r.baseline.value)} — ${r.baseline.what}` : '—'} | ${num(r.ratio)} | ${r.target ?? '—'} | ${r.met === null ? '—' : r.met ? 'yes' : '**no**'} |`,
    ),
  ].join('\n');
  mkdirSync(join(o.out, '..'), { recursive: true });
  writeFileSync(o.out, `${JSON.stringify({ machine: m, ...o.about, runs: o.runs, rows }, null, 2)}\n`);
  writeFileSync(o.out.replace(/\.json$/, '.md'), `${md}\n`);
  console.log(`\nwrote ${o.out} and ${o.out.replace(/\.json$/, '.md')}`);
}
