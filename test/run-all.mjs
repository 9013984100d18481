// `npm test`: the whole suite, in order — static checks, the build and its SBOM's licence check,
// vitest (unit, integration, renderer), the end-to-end tests in Chromium, smoke runs of the benchmarks (solo and team) — and one closing line
// `N passed, N failed` for CI.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { relative } from 'node:path';

// The suite runs on the Node the console supports (electron/runtime/node-guard.ts): on an older
// one the SQLite driver crashes the test workers, so say it once instead.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 14)) {
  console.error(
    `npm test needs Node.js 22.14 or newer (24 recommended); this is Node.js ${process.versions.node}. On Linux x64 run \`. build/use-node.sh\` first.`,
  );
  console.log('0 passed, 1 failed');
  process.exit(1);
}

const results = { passed: 0, failed: 0, skipped: 0 };
const lines = [];
mkdirSync('test-results', { recursive: true });

function run(label, command, args) {
  console.log(`\n=== ${label}: ${command} ${args.join(' ')}`);
  const started = Date.now();
  const r = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, FORCE_COLOR: process.env.CI ? '0' : '1' } });
  return { code: r.status ?? 1, seconds: ((Date.now() - started) / 1000).toFixed(1) };
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** As run, without waiting: resolves when it ends. */
function started(label, command, args) {
  console.log(`\n=== ${label}: ${command} ${args.join(' ')} (alongside)`);
  const begun = Date.now();
  const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, FORCE_COLOR: process.env.CI ? '0' : '1' } });
  return new Promise((resolve) =>
    child.on('close', (code) => resolve({ code: code ?? 1, seconds: ((Date.now() - begun) / 1000).toFixed(1) })),
  );
}

// 1. Type-check, lint (with the layering rules) and format: one check, pass or fail. And 2., at
// the same time (the check reads the sources, the build writes dist/: they share nothing), the
// UI and the Electron bundles the packaging and end-to-end tests use. Side by side on two cores
// they take about the longer of the two instead of both.
const [check, build] = await Promise.all([
  started('check', 'npm', ['run', '-s', 'check']),
  started('build', 'npm', ['run', '-s', 'build']),
]);
if (check.code === 0) results.passed++;
else results.failed++;
lines.push(`check (typecheck, lint, format): ${check.code === 0 ? 'passed' : 'FAILED'} in ${check.seconds} s`);
lines.push(`build: ${build.code === 0 ? 'done' : 'FAILED'} in ${build.seconds} s`);
if (build.code !== 0) results.failed++;

// 2b. The SBOM of what the build ships, and its licence check: a shipped package with a licence
// outside build/licence-allowlist.json fails here. One check, pass or fail; the SBOM is kept in
// test-results/.
if (build.code !== 0) {
  lines.push('sbom: not run (the build failed)');
} else {
  const sbom = run('sbom', 'npm', ['run', '-s', 'sbom', '--', '--output', 'test-results/sbom.cdx.json']);
  if (sbom.code === 0) results.passed++;
  else results.failed++;
  lines.push(`sbom (CycloneDX, licence allowlist): ${sbom.code === 0 ? 'passed' : `FAILED (exit ${sbom.code})`} in ${sbom.seconds} s`);
}

// 3. vitest: unit, integration (incl. packaging), renderer.
rmSync('test-results/vitest.json', { force: true });
const vitest = run('vitest', 'npx', [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  '--outputFile.json=test-results/vitest.json',
]);
const v = readJson('test-results/vitest.json');
if (v) {
  results.passed += v.numPassedTests;
  results.failed += v.numFailedTests;
  results.skipped += v.numPendingTests + v.numTodoTests;
  lines.push(`vitest: ${v.numPassedTests} passed, ${v.numFailedTests} failed in ${vitest.seconds} s`);
  // The failed tests by name, here in the summary: a CI record often keeps only the last lines.
  const failedNames = v.testResults.flatMap((f) =>
    (f.assertionResults ?? []).filter((a) => a.status === 'failed').map((a) => `${relative(process.cwd(), f.name)} › ${a.fullName}`),
  );
  named(failedNames);
}
if (!v || (vitest.code !== 0 && v.numFailedTests === 0)) {
  results.failed++;
  lines.push(`vitest: the run itself failed (exit ${vitest.code})`);
}

// 4. End-to-end in Chromium through the browser host.
if (build.code !== 0) {
  lines.push('playwright: not run (the build failed)');
} else {
  rmSync('test-results/playwright.json', { force: true });
  const e2e = run('playwright', 'npx', ['playwright', 'test']);
  const p = existsSync('test-results/playwright.json') ? readJson('test-results/playwright.json') : null;
  if (p) {
    const failed = p.stats.unexpected + p.stats.flaky;
    results.passed += p.stats.expected;
    results.failed += failed;
    results.skipped += p.stats.skipped;
    lines.push(`playwright: ${p.stats.expected} passed, ${failed} failed in ${e2e.seconds} s`);
    named(failedSpecs(p.suites ?? []));
  }
  if (!p || (e2e.code !== 0 && p.stats.unexpected + p.stats.flaky === 0)) {
    results.failed++;
    lines.push(`playwright: the run itself failed (exit ${e2e.code})`);
  }
}

// 5. The benchmark at its smallest size, so it cannot rot: it must run to the end and write its
// report. No figure is judged here (timings are not assertions); `npm run bench` is for that.
if (build.code !== 0) {
  lines.push('bench smoke: not run (the build failed)');
} else {
  smoke('bench smoke', 'bench', 'test-results/bench-smoke.json');
  // The team store's benchmark (PostgreSQL), likewise at its smallest.
  smoke('team bench smoke', 'bench:team', 'test-results/bench-team-smoke.json');
}

/** Up to ten failed tests' names under the count they belong to. */
function named(names) {
  for (const name of names.slice(0, 10)) lines.push(`  ✘ ${name}`);
  if (names.length > 10) lines.push(`  … and ${names.length - 10} more`);
}

/** Playwright's JSON report: every spec that did not pass (or passed only on a retry), with its project. */
function failedSpecs(suites) {
  return suites.flatMap((suite) => [
    ...(suite.specs ?? []).flatMap((spec) =>
      (spec.tests ?? [])
        .filter((t) => t.status === 'unexpected' || t.status === 'flaky')
        .map((t) => `${spec.file} › ${spec.title} [${t.projectName}]${t.status === 'flaky' ? ' (passed on retry)' : ''}`),
    ),
    ...failedSpecs(suite.suites ?? []),
  ]);
}

/** A benchmark's smoke run: it must end well and write every figure it measures (none is judged). */
function smoke(label, script, out) {
  rmSync(out, { force: true });
  const bench = run(label, 'npm', ['run', '-s', script, '--', '--smoke', '--out', out]);
  const b = readJson(out);
  const ok = bench.code === 0 && b !== null && Array.isArray(b.rows) && b.rows.length > 0 && b.rows.every((r) => r.runs > 0);
  if (ok) results.passed++;
  else results.failed++;
  lines.push(`${label}: ${ok ? `ran, ${b.rows.length} figures` : `FAILED (exit ${bench.code})`} in ${bench.seconds} s`);
}

console.log('\n=== summary');
for (const line of lines) console.log(line);
console.log(`${results.passed} passed, ${results.failed} failed${results.skipped ? `, ${results.skipped} skipped` : ''}`);
process.exit(results.failed === 0 ? 0 : 1);
