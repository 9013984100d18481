// The licence check of `npm run sbom`: every package that ships must declare a licence the project
// accepts (build/licence-allowlist.json). Pure functions over a package set, so a test can feed it
// any set.
import parseSpdx from 'spdx-expression-parse';

/** build/licence-allowlist.json */
export interface LicenceAllowlist {
  /** SPDX licence ids (or `ID WITH exception`, or `LicenseRef-…`) accepted for any package. */
  licences: string[];
  /** Why each licence is acceptable (documentation; a test checks every licence has one). */
  reasons?: Record<string, string>;
  /**
   * Per-package approvals for a licence that is not an accepted SPDX expression (a `SEE LICENSE IN …`,
   * a custom text): the package name and the exact licence text it declares, with the reason. A
   * package whose declared licence changes needs approving again.
   */
  packages?: Record<string, { licence: string; reason: string }>;
}

/** A shipped package as the check sees it: what its package.json declares. */
export interface LicensedPackage {
  name: string;
  version: string;
  /**
   * The declared licences: `license` (a string, or the `type` of an old-style object), or each
   * `type` of an old-style `licenses` array. Empty when it declares none.
   */
  licences: string[];
}

export interface LicenceProblem {
  name: string;
  version: string;
  licence: string;
  reason: string;
}

type SpdxNode = ReturnType<typeof parseSpdx>;

/** The SPDX expression's tree, or undefined when the text is not a valid SPDX expression. */
export function parseExpression(text: string): SpdxNode | undefined {
  try {
    return parseSpdx(text.trim());
  } catch {
    return undefined;
  }
}

/**
 * Whether an SPDX expression is acceptable: `A OR B` when either is, `A AND B` when both are;
 * `ID WITH exception` when it is listed so or when ID itself is (an exception only grants more);
 * `ID+` (this version or later) when ID is. LicenseRef-… only when listed.
 */
export function expressionAllowed(node: SpdxNode, allowed: ReadonlySet<string>): boolean {
  if ('conjunction' in node) {
    const left = expressionAllowed(node.left, allowed);
    const right = expressionAllowed(node.right, allowed);
    return node.conjunction === 'or' ? left || right : left && right;
  }
  const id = node.license;
  if (node.exception !== undefined && allowed.has(`${id}${node.plus ? '+' : ''} WITH ${node.exception}`)) return true;
  if (node.plus && allowed.has(`${id}+`)) return true;
  return allowed.has(id);
}

/** The licence problems of a package set: each shipped package whose licence is missing, unknown or not accepted. */
export function checkLicences(packages: readonly LicensedPackage[], allowlist: LicenceAllowlist): LicenceProblem[] {
  const allowed = new Set(allowlist.licences);
  const problems: LicenceProblem[] = [];
  for (const pkg of packages) {
    if (pkg.licences.length === 0) {
      problems.push({ name: pkg.name, version: pkg.version, licence: '(none declared)', reason: 'declares no licence' });
      continue;
    }
    // Several declared licences (an old-style `licenses` array) must each be acceptable: the array
    // does not say whether it means a choice or a conjunction.
    for (const licence of pkg.licences) {
      const approval = allowlist.packages?.[pkg.name];
      if (approval && approval.licence === licence) continue;
      const node = parseExpression(licence);
      if (!node) {
        const reason = approval
          ? `is not an SPDX expression, and its approval in the allowlist is for "${approval.licence}"`
          : 'is not an SPDX expression: approve it for this package under "packages" in the allowlist';
        problems.push({ name: pkg.name, version: pkg.version, licence, reason });
      } else if (!expressionAllowed(node, allowed)) {
        problems.push({ name: pkg.name, version: pkg.version, licence, reason: 'is not in the licence allowlist' });
      }
    }
  }
  return problems.sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version));
}

/** The message that fails the build: one line per package. */
export function formatProblems(problems: readonly LicenceProblem[], allowlistFile: string): string {
  const lines = problems.map((p) => `  ${p.name}@${p.version}: licence "${p.licence}" ${p.reason}`);
  return [
    `sbom: ${problems.length} shipped package${problems.length === 1 ? '' : 's'} with a licence outside ${allowlistFile}:`,
    ...lines,
    'Replace the package, or approve the licence in that file (see docs/testing-and-packaging.md, "Packaging").',
  ].join('\n');
}
