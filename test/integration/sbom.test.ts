import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import idnEmail from 'ajv-formats-draft2019/formats/idn-email.js';
import iriReference from 'ajv-formats-draft2019/formats/iri-reference.js';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp.js';

/**
 * `npm run sbom` as CI runs it, after `npm run build`: the CycloneDX SBOM of what ships, checked
 * against the official 1.6 JSON schema, and its licence check failing on a package it must refuse.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const schemas = join(root, 'test/fixtures/cyclonedx');

interface Component {
  type: string;
  name: string;
  group?: string;
  version: string;
  purl: string;
  'bom-ref': string;
  scope?: string;
  licenses?: { license?: { id?: string; name?: string }; expression?: string }[];
  properties?: { name: string; value: string }[];
}
interface Bom {
  bomFormat: string;
  specVersion: string;
  version: number;
  serialNumber: string;
  metadata: { timestamp: string; component: { name: string; version: string }; tools: { components: { name: string }[] } };
  components: Component[];
  dependencies: { ref: string; dependsOn?: string[] }[];
}

function sbom(args: string[] = []) {
  const r = spawnSync('npm', ['run', '-s', 'sbom', '--', ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, FORCE_COLOR: '0' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const fullName = (c: Component) => (c.group ? `${c.group}/${c.name}` : c.name);
const installedVersion = (name: string) =>
  (JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

let text: string;
let bom: Bom;
let byName: Map<string, Component>;

beforeAll(() => {
  expect(existsSync(join(root, 'dist/meta/vite-renderer.json')), 'run npm run build first').toBe(true);
  const run = sbom();
  expect(run.stderr).not.toMatch(/outside|missing|FAILED/);
  expect(run.code).toBe(0);
  text = run.stdout;
  bom = JSON.parse(text) as Bom;
  byName = new Map(bom.components.map((c) => [fullName(c), c]));
}, 60_000);

describe('npm run sbom', () => {
  it('prints a CycloneDX 1.6 JSON document that the official schema accepts', () => {
    const read = (file: string) => JSON.parse(readFileSync(join(schemas, file), 'utf8')) as object;
    const ajv = new Ajv({ strict: false, allErrors: true, schemas: [read('spdx.schema.json'), read('jsf-0.82.schema.json')] });
    addFormats(ajv);
    ajv.addFormat('iri-reference', iriReference).addFormat('idn-email', idnEmail);
    const validate = ajv.compile(read('bom-1.6.schema.json'));
    expect(validate(bom) ? [] : validate.errors).toEqual([]);
    // The schema has teeth: an id outside SPDX's list (spdx.schema.json) is refused.
    const wrong = structuredClone(bom);
    wrong.components[0]!.licenses = [{ license: { id: 'Not-An-SPDX-Id' } }];
    expect(validate(wrong)).toBe(false);

    expect(bom).toMatchObject({ bomFormat: 'CycloneDX', specVersion: '1.6', version: 1 });
    expect(bom.serialNumber).toMatch(/^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(Date.now() - Date.parse(bom.metadata.timestamp)).toBeLessThan(10 * 60_000);
    const app = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; version: string };
    expect(bom.metadata.component).toMatchObject({ name: 'cdr-console', version: app.version });
    expect(bom.metadata.tools.components.map((t) => t.name).sort()).toEqual(['cyclonedx-library', 'esbuild', 'vite']);
  });

  it('lists the packages that ship, with their versions, licences and where they ship', () => {
    const expected: [string, string, string][] = [
      ['react', 'MIT', 'renderer bundle (dist/renderer)'],
      ['react-dom', 'MIT', 'renderer bundle (dist/renderer)'],
      ['@mantine/core', 'MIT', 'renderer bundle (dist/renderer)'],
      ['zod', 'MIT', 'renderer bundle (dist/renderer)'],
      ['zod', 'MIT', 'main-process bundle dist/electron/main.cjs'],
      ['jose', 'MIT', 'main-process bundle dist/electron/worker.cjs'],
      ['better-sqlite3-multiple-ciphers', 'MIT', 'runtime node_modules'],
      // Build-time headers of the native module, compiled into its prebuilt .node files, and a
      // production dependency that electron-builder packages.
      ['node-addon-api', 'MIT', 'runtime node_modules'],
      ['electron', 'MIT', 'Electron runtime'],
    ];
    for (const [name, licence, where] of expected) {
      const c = byName.get(name);
      expect(c, name).toBeDefined();
      const version = installedVersion(name);
      expect(c, name).toMatchObject({ version, scope: 'required', licenses: [{ license: { id: licence } }] });
      expect(c!.properties, name).toContainEqual({ name: 'cdr-console:ships-in', value: where });
    }
    // The scope is CycloneDX's group; the purl percent-encodes its `@`.
    expect(byName.get('@mantine/core')).toMatchObject({
      group: '@mantine',
      name: 'core',
      purl: `pkg:npm/%40mantine/core@${installedVersion('@mantine/core')}`,
    });
    for (const c of bom.components) {
      expect(c.purl).toBe(`pkg:npm/${c.group ? `${encodeURIComponent(c.group)}/` : ''}${c.name}@${c.version}`);
      expect(c['bom-ref']).toBe(c.purl);
      expect(c.licenses?.length, fullName(c)).toBeGreaterThan(0);
    }
    // The app depends on the native module; the native module on node-addon-api.
    const deps = new Map(bom.dependencies.map((d) => [d.ref, d.dependsOn ?? []]));
    expect(deps.get('cdr-console@' + bom.metadata.component.version)).toContain(byName.get('better-sqlite3-multiple-ciphers')!.purl);
    expect(deps.get(byName.get('better-sqlite3-multiple-ciphers')!.purl)).toEqual([byName.get('node-addon-api')!.purl]);
  });

  it('lists nothing that does not ship: test, lint, build and type tools', () => {
    for (const name of [
      'vitest',
      'eslint',
      'typescript',
      'electron-builder',
      'vite',
      'esbuild',
      'rolldown',
      'prettier',
      'tsx',
      'happy-dom',
    ])
      expect(byName.has(name), name).toBe(false);
    expect(
      [...byName.keys()].filter((n) => n.startsWith('@types/') || n.startsWith('@testing-library/') || n.startsWith('@playwright/')),
    ).toEqual([]);
  });

  it('is the same at every run but for the serial number and the timestamp, and --output writes it to a file', () => {
    const out = join(tempDir('cdr-sbom-'), 'sbom.cdx.json');
    const run = sbom(['--output', out]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`in ${out}`);
    const again = JSON.parse(readFileSync(out, 'utf8')) as Bom;
    expect(again.serialNumber).not.toBe(bom.serialNumber);
    const stable = (b: Bom) => ({ ...b, serialNumber: '', metadata: { ...b.metadata, timestamp: '' } });
    expect(stable(again)).toEqual(stable(bom));
    // Sorted (the library sorts components by bom-ref, here the purl).
    const purls = bom.components.map((c) => c.purl);
    expect(purls).toEqual([...purls].sort((a, b) => a.localeCompare(b)));
  });
});

describe('npm run sbom on an app that ships a package with a licence outside the allowlist', () => {
  let app: string;

  beforeAll(() => {
    app = tempDir('cdr-sbom-app-');
    const fixtures = join(root, 'test/fixtures/sbom/packages');
    const install = (fixture: string, name = fixture) =>
      cpSync(join(fixtures, fixture), join(app, 'node_modules', name), { recursive: true });
    install('gpl-runtime');
    install('needs-gpl-helper');
    install('bundled-dual');
    install('bundled-mpl', '@fixture/bundled-mpl');
    install('bundled-unlicensed');
    writeFileSync(
      join(app, 'package.json'),
      JSON.stringify({ name: 'fixture-app', version: '1.0.0', dependencies: { 'gpl-runtime': '1.2.3' } }),
    );
    // What the build would record: the main bundle holds code of two packages, the renderer of one.
    mkdirSync(join(app, 'dist/meta'), { recursive: true });
    mkdirSync(join(app, 'dist/electron'), { recursive: true });
    mkdirSync(join(app, 'dist/renderer/assets'), { recursive: true });
    const main: Record<string, { bytesInOutput: number }> = {
      'electron/main.ts': { bytesInOutput: 10 },
      'node_modules/bundled-dual/index.js': { bytesInOutput: 10 },
      'node_modules/@fixture/bundled-mpl/lib/index.js': { bytesInOutput: 10 },
      // Imported but tree-shaken away entirely: does not ship.
      'node_modules/not-installed/index.js': { bytesInOutput: 0 },
    };
    for (const bundle of ['main.cjs', 'worker.cjs', 'preload.cjs', 'start-main.mjs', 'host-main.mjs']) {
      writeFileSync(join(app, 'dist/electron', bundle), 'code');
      const outputs = { [`dist/electron/${bundle}`]: { bytes: 4, inputs: bundle === 'main.cjs' ? main : {} } };
      writeFileSync(join(app, `dist/meta/esbuild-${bundle}.json`), JSON.stringify({ inputs: {}, outputs }));
    }
    writeFileSync(join(app, 'dist/renderer/assets/index.js'), 'ui');
    const renderer = {
      'dist/renderer/assets/index.js': { bytes: 2, modules: ['\0rolldown/runtime.js', 'node_modules/bundled-unlicensed/index.js'] },
    };
    writeFileSync(join(app, 'dist/meta/vite-renderer.json'), JSON.stringify({ bundler: 'test', outputs: renderer }));
  });

  const run = (args: string[] = []) => sbom(['--root', app, '--allowlist', join(root, 'build/licence-allowlist.json'), ...args]);

  it('fails, naming each refused package and its licence, and still writes the SBOM to review', () => {
    const out = join(app, 'sbom.json');
    const r = run(['--output', out]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('3 shipped packages with a licence outside');
    expect(r.stderr).toContain('gpl-runtime@1.2.3: licence "GPL-3.0-only" is not in the licence allowlist');
    expect(r.stderr).toContain('@fixture/bundled-mpl@3.0.0: licence "MIT AND MPL-2.0" is not in the licence allowlist');
    expect(r.stderr).toContain('bundled-unlicensed@0.0.1: licence "(none declared)" declares no licence');
    expect(r.stderr).not.toMatch(/bundled-dual@|needs-gpl-helper@/);

    const written = JSON.parse(readFileSync(out, 'utf8')) as Bom;
    expect(written.components.map(fullName).sort()).toEqual([
      '@fixture/bundled-mpl',
      'bundled-dual',
      'bundled-unlicensed',
      'gpl-runtime',
      'needs-gpl-helper',
    ]);
    const dual = written.components.find((c) => c.name === 'bundled-dual')!;
    expect(dual.licenses).toEqual([{ expression: '(MIT OR GPL-2.0-only)', acknowledgement: 'declared' }]);
  });

  it('refuses a build record that no longer matches its bundle (run npm run build first)', () => {
    writeFileSync(join(app, 'dist/electron/worker.cjs'), 'changed code');
    const r = run();
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('dist/electron/worker.cjs is not the file the build');
    expect(r.stderr).toContain('npm run build');
    writeFileSync(join(app, 'dist/electron/worker.cjs'), 'code');
  });

  it('refuses code it cannot attribute to the app, a package or the bundler', () => {
    const record = join(app, 'dist/meta/vite-renderer.json');
    const saved = readFileSync(record, 'utf8');
    const modules = ['\0some-plugin:helper', '../elsewhere/lib.js'];
    writeFileSync(record, JSON.stringify({ bundler: 'test', outputs: { 'dist/renderer/assets/index.js': { bytes: 2, modules } } }));
    const r = run();
    writeFileSync(record, saved);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('cannot tell which package "\\u0000some-plugin:helper" in renderer comes from');
  });
});
