import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { licenceOf, purlOf } from '../../build/sbom/bom.js';
import { checkLicences, formatProblems, type LicenceAllowlist, type LicensedPackage, parseExpression } from '../../build/sbom/licences.js';
import { declaredLicences, packageDirOf } from '../../build/sbom/packages.js';

const allowlist: LicenceAllowlist = {
  licences: ['MIT', 'ISC', 'Apache-2.0', 'GPL-2.0-only WITH Classpath-exception-2.0'],
  packages: { 'custom-text': { licence: 'SEE LICENSE IN LICENSE.md', reason: 'reviewed: permissive' } },
};
const pkg = (name: string, ...licences: string[]): LicensedPackage => ({ name, version: '1.0.0', licences });
const refused = (...packages: LicensedPackage[]) => checkLicences(packages, allowlist).map((p) => `${p.name}: ${p.licence}`);

describe('the licence check of the SBOM', () => {
  it('accepts a listed id, an OR with one listed branch, an AND of listed parts', () => {
    expect(refused(pkg('a', 'MIT'), pkg('b', '(MIT OR GPL-3.0-only)'), pkg('c', 'GPL-3.0-only OR ISC'), pkg('d', 'MIT AND ISC'))).toEqual(
      [],
    );
    expect(refused(pkg('e', '(MIT AND ISC) OR GPL-3.0-only'), pkg('f', 'Apache-2.0+'))).toEqual([]);
  });

  it('refuses an id not listed, an AND with one part not listed, an OR with no listed branch', () => {
    expect(refused(pkg('a', 'GPL-3.0-only'), pkg('b', 'MIT AND MPL-2.0'), pkg('c', 'LGPL-2.1-only OR AGPL-3.0-only'))).toEqual([
      'a: GPL-3.0-only',
      'b: MIT AND MPL-2.0',
      'c: LGPL-2.1-only OR AGPL-3.0-only',
    ]);
  });

  it('accepts `ID WITH exception` when listed so or when ID is; refuses LicenseRef-… unless listed', () => {
    expect(refused(pkg('a', 'GPL-2.0-only WITH Classpath-exception-2.0'), pkg('b', 'MIT WITH Classpath-exception-2.0'))).toEqual([]);
    expect(refused(pkg('c', 'GPL-2.0-only WITH LLVM-exception'), pkg('d', 'LicenseRef-Proprietary'))).toEqual([
      'c: GPL-2.0-only WITH LLVM-exception',
      'd: LicenseRef-Proprietary',
    ]);
  });

  it('refuses a missing licence, and a text that is not SPDX unless approved for that package with that exact text', () => {
    const problems = checkLicences(
      [
        pkg('none'),
        pkg('custom-text', 'SEE LICENSE IN LICENSE.md'),
        pkg('other', 'SEE LICENSE IN LICENSE.md'),
        pkg('custom-text', 'Custom'),
      ],
      allowlist,
    );
    expect(problems.map((p) => [p.name, p.licence, p.reason])).toEqual([
      ['custom-text', 'Custom', 'is not an SPDX expression, and its approval in the allowlist is for "SEE LICENSE IN LICENSE.md"'],
      ['none', '(none declared)', 'declares no licence'],
      ['other', 'SEE LICENSE IN LICENSE.md', 'is not an SPDX expression: approve it for this package under "packages" in the allowlist'],
    ]);
  });

  it('needs every licence of an old-style `licenses` array to be acceptable', () => {
    expect(declaredLicences({ licenses: [{ type: 'MIT' }, { type: 'GPL-2.0-only' }] })).toEqual(['MIT', 'GPL-2.0-only']);
    expect(declaredLicences({ license: { type: 'ISC' } })).toEqual(['ISC']);
    expect(declaredLicences({})).toEqual([]);
    expect(refused(pkg('old', 'MIT', 'GPL-2.0-only'))).toEqual(['old: GPL-2.0-only']);
  });

  it('names each refused package, its version and its licence in the message', () => {
    const message = formatProblems(checkLicences([pkg('evil', 'GPL-3.0-only'), pkg('@s/worse', 'AGPL-3.0-or-later')], allowlist), 'x.json');
    expect(message).toContain('2 shipped packages with a licence outside x.json');
    expect(message).toContain('evil@1.0.0: licence "GPL-3.0-only" is not in the licence allowlist');
    expect(message).toContain('@s/worse@1.0.0: licence "AGPL-3.0-or-later" is not in the licence allowlist');
  });
});

describe("the repository's licence allowlist", () => {
  const file = JSON.parse(readFileSync(new URL('../../build/licence-allowlist.json', import.meta.url), 'utf8')) as LicenceAllowlist;

  it('lists valid SPDX ids, each with its reason, and nothing copyleft', () => {
    for (const id of file.licences) {
      expect(parseExpression(id), id).toEqual({ license: id });
      expect(file.reasons?.[id], id).toBeTruthy();
    }
    expect(file.licences.filter((id) => /GPL|MPL|EPL|EUPL|CDDL|OSL|SA-|Sleepycat/.test(id))).toEqual([]);
  });
});

describe('SBOM helpers', () => {
  it('maps a module path to its package folder, scoped and nested', () => {
    expect(packageDirOf('node_modules/react/cjs/react.production.js')).toBe('node_modules/react');
    expect(packageDirOf('node_modules/@mantine/core/esm/index.mjs')).toBe('node_modules/@mantine/core');
    expect(packageDirOf('node_modules/recharts/node_modules/@s/x/lib/a.js')).toBe('node_modules/recharts/node_modules/@s/x');
    expect(packageDirOf('node_modules\\zod\\v4\\index.js')).toBe('node_modules/zod');
    expect(packageDirOf('renderer/src/main.tsx')).toBeUndefined();
    expect(packageDirOf('node_modules/@scope')).toBeUndefined();
  });

  it('writes a licence as an SPDX id, an expression or a name, and a purl with the scope encoded', () => {
    expect(licenceOf('MIT')).toMatchObject({ id: 'MIT', acknowledgement: 'declared' });
    expect(licenceOf('(MIT OR Apache-2.0)')).toMatchObject({ expression: '(MIT OR Apache-2.0)' });
    expect(licenceOf('Apache-2.0+')).toMatchObject({ expression: 'Apache-2.0+' });
    expect(licenceOf('SEE LICENSE IN LICENSE')).toMatchObject({ name: 'SEE LICENSE IN LICENSE' });
    expect(purlOf('@mantine/core', '9.7.3')).toBe('pkg:npm/%40mantine/core@9.7.3');
    expect(purlOf('react', '19.3.1')).toBe('pkg:npm/react@19.3.1');
    expect(purlOf('x', '1.0.0+build.1')).toBe('pkg:npm/x@1.0.0%2Bbuild.1');
  });
});
