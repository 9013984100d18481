// What the app ships, as npm packages:
// - the runtime dependencies (package.json `dependencies`) and theirs, installed in node_modules
//   and packaged by electron-builder as they are;
// - the packages whose code the bundles hold: the renderer (Vite) and the main-process bundles
//   (esbuild), from the records the build writes to dist/meta/ (build/bundle-electron.mjs,
//   build/vite-shipped-modules.ts). These are devDependencies, but their code ships;
// - Electron itself, the packaged app's executable.
// A package is identified by its folder under node_modules (nested folders included), then merged
// with any other copy of the same name and version.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, isAbsolute, join, sep } from 'node:path';
import type { ShippedModules } from '../vite-shipped-modules.js';

/** Where a package's code ships. */
export type ShipsIn =
  'node_modules' | 'electron' | 'renderer' | 'main.cjs' | 'worker.cjs' | 'preload.cjs' | 'start-main.mjs' | 'host-main.mjs';

/**
 * The main-process bundles build/bundle-electron.mjs writes, each with its esbuild metafile in
 * dist/meta/. start.mjs and host.mjs, the launchers in front of start-main.mjs and host-main.mjs,
 * hold no package's code (build/bundles.mjs, writeLauncher).
 */
export const ELECTRON_BUNDLES = ['main.cjs', 'worker.cjs', 'preload.cjs', 'start-main.mjs', 'host-main.mjs'] as const;
export const RENDERER_RECORD = 'dist/meta/vite-renderer.json';

export interface PackageJson {
  name?: string;
  version?: string;
  description?: string;
  license?: string | { type?: string };
  licenses?: { type?: string }[] | string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

export interface ShippedPackage {
  name: string;
  version: string;
  description?: string;
  /** The declared licences (see LicensedPackage in licences.ts). */
  licences: string[];
  /** Folders relative to the root, '/'-separated (several when the same version is installed twice). */
  dirs: string[];
  shipsIn: ShipsIn[];
  /** `name@version` of the shipped packages it depends on (declared, and installed where Node resolves them). */
  dependsOn: string[];
  /** Named in the app's own package.json. */
  direct: boolean;
}

/** A problem with the build's records or the installed packages: the SBOM cannot be trusted, so it is not made. */
export class SbomInputError extends Error {}

export const keyOf = (p: { name: string; version: string }) => `${p.name}@${p.version}`;
const slash = (p: string) => p.split(sep).join('/');

export function readPackageJson(dir: string): PackageJson {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson;
}

/** The licences a package.json declares, as written (`license`, or the old `licenses` forms). */
export function declaredLicences(pkg: PackageJson): string[] {
  const { license, licenses } = pkg;
  if (typeof license === 'string' && license.trim()) return [license.trim()];
  if (license && typeof license === 'object' && license.type) return [license.type];
  if (typeof licenses === 'string' && licenses.trim()) return [licenses.trim()];
  if (Array.isArray(licenses)) return licenses.flatMap((l) => (l?.type ? [l.type] : []));
  return [];
}

/**
 * The package folder a module belongs to: the part of its path up to the package's name after the
 * last `node_modules/` (`node_modules/a/node_modules/@s/b/x.js` → `node_modules/a/node_modules/@s/b`).
 * Undefined for a module outside node_modules.
 */
export function packageDirOf(modulePath: string): string | undefined {
  const path = modulePath.replaceAll('\\', '/');
  const at = path.lastIndexOf('node_modules/');
  if (at < 0) return undefined;
  const rest = path.slice(at + 'node_modules/'.length).split('/');
  const nameParts = rest[0]?.startsWith('@') ? 2 : 1;
  if (rest.length <= nameParts || rest.slice(0, nameParts).some((p) => !p)) return undefined;
  return path.slice(0, at + 'node_modules/'.length) + rest.slice(0, nameParts).join('/');
}

/** Where Node would find package `name` from folder `from` (relative to root): its node_modules, then each parent's. */
export function resolvePackageDir(root: string, from: string, name: string): string | undefined {
  let dir = from;
  for (;;) {
    const candidate = dir ? `${dir}/node_modules/${name}` : `node_modules/${name}`;
    if (existsSync(join(root, candidate, 'package.json'))) return candidate;
    if (!dir) return undefined;
    // Up one folder, skipping a node_modules segment (and a scope's folder) on the way.
    const parts = dir.split('/');
    parts.pop();
    if (parts.at(-1)?.startsWith('@')) parts.pop();
    if (parts.at(-1) === 'node_modules') parts.pop();
    dir = parts.join('/');
  }
}

interface BundleRecord {
  shipsIn: ShipsIn;
  /** Output file (relative to root) → bytes expected on disk and the modules that put code into it. */
  outputs: Map<string, { bytes: number; modules: string[] }>;
}

interface EsbuildMetafile {
  outputs: Record<string, { bytes: number; inputs: Record<string, { bytesInOutput: number }> }>;
}

const BUILD_FIRST = 'run `npm run build` first (the SBOM is read from the build, so it matches what was built)';

function readRecord(root: string, file: string): unknown {
  const path = join(root, file);
  if (!existsSync(path)) throw new SbomInputError(`sbom: ${file} is missing: ${BUILD_FIRST}`);
  return JSON.parse(readFileSync(path, 'utf8'));
}

/** The build's records of what each bundle holds; fails when one is missing or older than its bundle. */
export function readBundleRecords(root: string): BundleRecord[] {
  const records: BundleRecord[] = [];
  for (const bundle of ELECTRON_BUNDLES) {
    const metafile = readRecord(root, `dist/meta/esbuild-${bundle}.json`) as EsbuildMetafile;
    const outputs = new Map<string, { bytes: number; modules: string[] }>();
    for (const [file, output] of Object.entries(metafile.outputs)) {
      if (file.endsWith('.map')) continue;
      const modules = Object.entries(output.inputs)
        .filter(([, input]) => input.bytesInOutput > 0)
        .map(([path]) => path);
      outputs.set(file, { bytes: output.bytes, modules });
    }
    if (!outputs.has(`dist/electron/${bundle}`))
      throw new SbomInputError(`sbom: dist/meta/esbuild-${bundle}.json does not describe dist/electron/${bundle}: ${BUILD_FIRST}`);
    records.push({ shipsIn: bundle, outputs });
  }
  const vite = readRecord(root, RENDERER_RECORD) as ShippedModules;
  records.push({ shipsIn: 'renderer', outputs: new Map(Object.entries(vite.outputs)) });

  // Every built file is described, with the size it has on disk: a record from an older build
  // (or a bundle rebuilt without its record) would describe other code.
  for (const record of records)
    for (const [file, { bytes }] of record.outputs) {
      const path = join(root, file);
      if (!existsSync(path)) throw new SbomInputError(`sbom: ${file}, described by the build's record, is missing: ${BUILD_FIRST}`);
      if (statSync(path).size !== bytes)
        throw new SbomInputError(`sbom: ${file} is not the file the build's record describes (size differs): ${BUILD_FIRST}`);
    }
  const described = new Set(records.flatMap((r) => [...r.outputs.keys()]));
  const rendererDir = join(root, 'dist/renderer');
  const rendererFiles = existsSync(rendererDir) ? readdirSync(rendererDir, { recursive: true, encoding: 'utf8' }) : [];
  for (const file of rendererFiles.map((f) => `dist/renderer/${slash(f)}`))
    if (/\.(js|mjs|css|html)$/.test(file) && !described.has(file))
      throw new SbomInputError(`sbom: ${file} is not in ${RENDERER_RECORD}: ${BUILD_FIRST}`);
  return records;
}

/**
 * Module ids that are neither files of the app nor of a package: code the bundler writes itself
 * (rolldown's runtime helpers, Vite's module-preload polyfill). Like esbuild's helpers, which its
 * metafile does not list, they are the bundler's output, not a package that ships.
 */
const BUNDLER_GENERATED = /^\0(rolldown|vite)\//;

/** A file of the app's own folder (renderer/, electron/, shared/, package.json…): the app, not a third-party package. */
const isAppFile = (module: string) => !module.startsWith('\0') && !module.startsWith('../') && !isAbsolute(module);

/** The shipped packages, sorted by name then version. */
export function collectShippedPackages(root: string): ShippedPackage[] {
  const app = readPackageJson(root);
  const byDir = new Map<string, Set<ShipsIn>>();
  const ship = (dir: string, where: ShipsIn) => byDir.set(dir, (byDir.get(dir) ?? new Set()).add(where));

  for (const record of readBundleRecords(root))
    for (const { modules } of record.outputs.values())
      for (const module of modules) {
        const dir = packageDirOf(module);
        if (dir) ship(dir, record.shipsIn);
        else if (!BUNDLER_GENERATED.test(module) && !isAppFile(module))
          throw new SbomInputError(`sbom: cannot tell which package ${JSON.stringify(module)} in ${record.shipsIn} comes from`);
      }

  // The runtime dependencies, installed as they are: everything each one needs to load, transitively.
  const pending = Object.keys(app.dependencies ?? {}).map((name) => ({ from: '', name, optional: false }));
  const seen = new Set<string>();
  while (pending.length) {
    const { from, name, optional } = pending.shift()!;
    const dir = resolvePackageDir(root, from, name);
    if (!dir) {
      if (optional) continue;
      throw new SbomInputError(`sbom: ${name}, a runtime dependency${from ? ` of ${from}` : ''}, is not installed: run npm ci`);
    }
    ship(dir, 'node_modules');
    if (seen.has(dir)) continue;
    seen.add(dir);
    pending.push(...dependenciesOf(readPackageJson(join(root, dir))).map((d) => ({ from: dir, ...d })));
  }

  // Electron: the packaged app is its executable (the version electron-builder packages is this one).
  if (existsSync(join(root, 'node_modules/electron/package.json'))) ship('node_modules/electron', 'electron');

  const packages = new Map<string, ShippedPackage>();
  const dirKeys = new Map<string, string>();
  for (const [dir, where] of byDir) {
    const pkg = readPackageJson(join(root, dir));
    if (!pkg.name || !pkg.version) throw new SbomInputError(`sbom: ${dir}/package.json has no name or version`);
    const key = keyOf({ name: pkg.name, version: pkg.version });
    dirKeys.set(dir, key);
    const known = packages.get(key);
    if (known) {
      known.dirs.push(dir);
      known.shipsIn.push(...where);
      continue;
    }
    packages.set(key, {
      name: pkg.name,
      version: pkg.version,
      ...(pkg.description ? { description: pkg.description } : {}),
      licences: declaredLicences(pkg),
      dirs: [dir],
      shipsIn: [...where],
      dependsOn: [],
      direct: false,
    });
  }

  const appDeps = new Set(Object.keys({ ...app.dependencies, ...app.devDependencies }));
  for (const [dir, key] of dirKeys) {
    const shipped = packages.get(key)!;
    if (appDeps.has(shipped.name) && resolvePackageDir(root, '', shipped.name) === dir) shipped.direct = true;
    for (const dep of dependenciesOf(readPackageJson(join(root, dir)))) {
      const depDir = resolvePackageDir(root, dir, dep.name);
      const depKey = depDir ? dirKeys.get(depDir) : undefined;
      if (depKey && depKey !== key) shipped.dependsOn.push(depKey);
    }
  }
  return [...packages.values()]
    .map((p) => ({
      ...p,
      dirs: [...new Set(p.dirs)].sort(),
      shipsIn: [...new Set(p.shipsIn)].sort(),
      dependsOn: [...new Set(p.dependsOn)].sort(),
    }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version));
}

/** A package's own dependencies: required, optional, and peers (optional when marked so). */
function dependenciesOf(pkg: PackageJson): { name: string; optional: boolean }[] {
  return [
    ...Object.keys(pkg.dependencies ?? {}).map((name) => ({ name, optional: false })),
    ...Object.keys(pkg.optionalDependencies ?? {}).map((name) => ({ name, optional: true })),
    ...Object.keys(pkg.peerDependencies ?? {}).map((name) => ({ name, optional: pkg.peerDependenciesMeta?.[name]?.optional === true })),
  ];
}

/** The bundles' names, for messages. */
export const describeShipsIn = (where: ShipsIn): string =>
  where === 'node_modules'
    ? 'runtime node_modules'
    : where === 'electron'
      ? 'Electron runtime'
      : where === 'renderer'
        ? 'renderer bundle (dist/renderer)'
        : `main-process bundle dist/electron/${basename(where)}`;
