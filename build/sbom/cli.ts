// `npm run sbom [-- --output FILE]`: the CycloneDX 1.6 JSON SBOM of what the app ships, on standard
// output or in FILE, after `npm run build` (it reads the build's records in dist/meta/). Exits 1
// when a shipped package's licence is outside build/licence-allowlist.json (the SBOM is still
// written, to review), 2 when the build's records are missing or stale.
//
// Options for tests and other trees: --root DIR (the app's folder; default this repository),
// --allowlist FILE (default ROOT/build/licence-allowlist.json). SOURCE_DATE_EPOCH, when set, is the
// timestamp.
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { makeBom } from './bom.js';
import { checkLicences, formatProblems, type LicenceAllowlist } from './licences.js';
import { collectShippedPackages, readPackageJson, SbomInputError } from './packages.js';

const repository = fileURLToPath(new URL('../../', import.meta.url));

function toolVersion(name: string): { group?: string; name: string; version: string } {
  const pkg = createRequire(import.meta.url)(`${name}/package.json`) as { version: string };
  const slash = name.indexOf('/');
  return name.startsWith('@')
    ? { group: name.slice(0, slash), name: name.slice(slash + 1), version: pkg.version }
    : { name, version: pkg.version };
}

function main(): number {
  const { values } = parseArgs({
    options: { output: { type: 'string', short: 'o' }, root: { type: 'string' }, allowlist: { type: 'string' } },
    strict: true,
  });
  const root = resolve(values.root ?? repository);
  const allowlistFile = resolve(values.allowlist ?? resolve(root, 'build/licence-allowlist.json'));
  const allowlist = JSON.parse(readFileSync(allowlistFile, 'utf8')) as LicenceAllowlist;

  const app = readPackageJson(root);
  const packages = collectShippedPackages(root);
  const epoch = process.env.SOURCE_DATE_EPOCH;
  const bom = makeBom({
    app: { name: app.name ?? 'app', version: app.version ?? '0.0.0', ...(app.description ? { description: app.description } : {}) },
    packages,
    tools: [toolVersion('@cyclonedx/cyclonedx-library'), toolVersion('esbuild'), toolVersion('vite')],
    serialNumber: `urn:uuid:${randomUUID()}`,
    timestamp: epoch ? new Date(Number(epoch) * 1000) : new Date(),
  });
  if (values.output) writeFileSync(values.output, `${bom}\n`);
  else process.stdout.write(`${bom}\n`);

  const counts = new Map<string, number>();
  for (const pkg of packages)
    for (const licence of pkg.licences.length ? pkg.licences : ['(none)']) counts.set(licence, (counts.get(licence) ?? 0) + 1);
  const summary = [...counts].sort(([a], [b]) => a.localeCompare(b)).map(([licence, n]) => `${licence} ${n}`);
  console.error(`sbom: ${packages.length} shipped packages${values.output ? ` in ${values.output}` : ''}; licences: ${summary.join(', ')}`);

  const problems = checkLicences(packages, allowlist);
  if (problems.length) {
    console.error(formatProblems(problems, relative(process.cwd(), allowlistFile) || allowlistFile));
    return 1;
  }
  return 0;
}

try {
  process.exitCode = main();
} catch (error) {
  if (!(error instanceof SbomInputError)) throw error;
  console.error(error.message);
  process.exitCode = 2;
}
