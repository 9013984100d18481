import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { normalizePayload } from '../../shared/banking/index.js';

/**
 * `npm run -s normalize -- FILE|DIR|- ...`: banking product / account detail JSON, in any CDS
 * version, → the Data API 2.0.0 form with notes.
 *
 * One file (or - for standard input): the normalised JSON, `{ "data": …, "notes": […] }`.
 * Several inputs or a directory: one JSON line per input file,
 *   {"input": PATH, "ok": true, "data": …, "notes": […]}  or  {"input": PATH, "ok": false, "error": MESSAGE}
 * Exit: 0 when every input normalised, 1 when any failed, 2 for bad usage. A failing input never
 * stops the others.
 */
const USAGE = `Usage: npm run -s normalize -- FILE|DIR|- ...

Normalises banking product and account detail JSON (old CDS, CDS 1.34+ or Data API 2.0.0 shapes,
a bare record, a list, or a response envelope) to the Data API 2.0.0 form, with a note for every
lossy, guessed or ambiguous mapping.

  FILE   a JSON file
  DIR    every *.json file below it (sorted), one output line each
  -      standard input

One input prints {"data", "notes"}; several print one JSON line per input:
{"input", "ok": true, "data", "notes"} or {"input", "ok": false, "error"}.
Exit codes: 0 all normalised, 1 some input failed, 2 bad usage.`;

interface Input {
  label: string;
  read: () => string;
}

function filesBelow(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesBelow(path));
    else if (entry.isFile() && entry.name.toLowerCase().endsWith('.json')) out.push(path);
  }
  return out;
}

function expand(args: string[]): { inputs: Input[]; single: boolean } {
  const inputs: Input[] = [];
  let sawDir = false;
  for (const arg of args) {
    if (arg === '-') {
      inputs.push({ label: '-', read: () => readFileSync(0, 'utf8') });
      continue;
    }
    let isDir = false;
    try {
      isDir = statSync(arg).isDirectory();
    } catch {
      // A missing path is an input that fails, like an unreadable one, and does not stop the rest.
    }
    if (isDir) {
      sawDir = true;
      for (const file of filesBelow(arg))
        inputs.push({ label: relative(process.cwd(), file) || file, read: () => readFileSync(file, 'utf8') });
    } else inputs.push({ label: arg, read: () => readFileSync(arg, 'utf8') });
  }
  return { inputs, single: inputs.length === 1 && !sawDir };
}

function normalizeText(text: string) {
  let json: unknown;
  try {
    // A UTF-8 byte order mark (Windows editors write one) is not part of the JSON.
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new Error(`not JSON: ${(error as Error).message}`);
  }
  const { data, notes } = normalizePayload(json);
  return { data, notes };
}

function errorMessage(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  if (e.code === 'ENOENT') return 'no such file or directory';
  if (e.code === 'EISDIR') return 'is a directory';
  if (e.code === 'EACCES') return 'permission denied';
  return e.message ?? String(error);
}

export function runNormalize(argv: string[]): number {
  if (argv.includes('-h') || argv.includes('--help')) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const unknown = argv.filter((a) => a.startsWith('-') && a !== '-');
  if (unknown.length || argv.length === 0) {
    process.stderr.write(`normalize: ${unknown.length ? `unknown option ${unknown[0]}` : 'no input given'} (--help for usage)\n`);
    return 2;
  }
  const { inputs, single } = expand(argv);
  if (inputs.length === 0) {
    process.stderr.write('normalize: the directories given hold no .json file\n');
    return 1;
  }
  if (single) {
    const input = inputs[0]!;
    try {
      process.stdout.write(`${JSON.stringify(normalizeText(input.read()), null, 2)}\n`);
      return 0;
    } catch (error) {
      process.stderr.write(`normalize: ${input.label}: ${errorMessage(error)}\n`);
      return 1;
    }
  }
  let failed = 0;
  for (const input of inputs) {
    let line: string;
    try {
      const { data, notes } = normalizeText(input.read());
      line = JSON.stringify({ input: input.label, ok: true, data, notes });
    } catch (error) {
      failed++;
      line = JSON.stringify({ input: input.label, ok: false, error: errorMessage(error) });
    }
    process.stdout.write(`${line}\n`);
  }
  if (failed) process.stderr.write(`normalize: ${failed} of ${inputs.length} inputs failed\n`);
  return failed ? 1 : 0;
}

// Run as a command (npm run normalize), not when imported by the console's command line — nor when
// bundled into it (dist/electron/cli.mjs), where this module's URL is the bundle's.
if (process.argv[1] && /normalize\.[cm]?[jt]s$/.test(process.argv[1]) && import.meta.url === pathToFileURL(process.argv[1]).href)
  process.exitCode = runNormalize(process.argv.slice(2));
