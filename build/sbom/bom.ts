// The CycloneDX 1.6 JSON document of the shipped packages, made with the CycloneDX project's own
// library (models, normalisation, sorted lists).
import { Enums, Models, Serialize, SPDX, Spec } from '@cyclonedx/cyclonedx-library';
import { parseExpression } from './licences.js';
import { describeShipsIn, type ShippedPackage } from './packages.js';

export const SPEC_VERSION = '1.6';
/** Where the package's code ships (one property per place): see describeShipsIn. */
export const SHIPS_IN_PROPERTY = 'cdr-console:ships-in';
/** The package's folder, relative to the app's root (a registered CycloneDX property). */
export const PATH_PROPERTY = 'cdx:npm:package:path';

export interface BomInput {
  app: { name: string; version: string; description?: string };
  packages: readonly ShippedPackage[];
  /** The programs that made the SBOM and the records it is read from. */
  tools: readonly { group?: string; name: string; version: string }[];
  serialNumber: string;
  timestamp: Date;
}

/** `pkg:npm/…` (scope's `@` percent-encoded, as the purl spec says). */
export function purlOf(name: string, version: string): string {
  const [scope, bare] = splitName(name);
  const path = scope ? `${encodeURIComponent(scope)}/${encodeURIComponent(bare)}` : encodeURIComponent(bare);
  return `pkg:npm/${path}@${encodeURIComponent(version)}`;
}

/** `@scope/name` → ['@scope', 'name'] (CycloneDX puts the scope in `group`); `name` → [undefined, 'name']. */
export function splitName(name: string): [string | undefined, string] {
  const slash = name.indexOf('/');
  return name.startsWith('@') && slash > 0 ? [name.slice(0, slash), name.slice(slash + 1)] : [undefined, name];
}

/**
 * A declared licence as CycloneDX has it: one SPDX id as `license.id` (when CycloneDX's SPDX list
 * knows it), any other valid SPDX expression as `expression`, anything else as `license.name`.
 */
export function licenceOf(text: string): Models.License {
  const node = parseExpression(text);
  const declared = { acknowledgement: Enums.LicenseAcknowledgement.Declared };
  if (node && !('conjunction' in node) && !node.plus && !node.exception && SPDX.isSupportedSpdxId(node.license))
    return new Models.SpdxLicense(node.license, declared);
  if (node) return Object.assign(new Models.LicenseExpression(text.trim()), declared);
  return new Models.NamedLicense(text, declared);
}

function componentOf(pkg: ShippedPackage): Models.Component {
  const [group, name] = splitName(pkg.name);
  const purl = purlOf(pkg.name, pkg.version);
  const component = new Models.Component(pkg.name === 'electron' ? Enums.ComponentType.Framework : Enums.ComponentType.Library, name, {
    bomRef: purl,
    ...(group ? { group } : {}),
    version: pkg.version,
    purl,
    scope: Enums.ComponentScope.Required,
    ...(pkg.description ? { description: pkg.description } : {}),
  });
  for (const licence of pkg.licences) component.licenses.add(licenceOf(licence));
  for (const where of pkg.shipsIn) component.properties.add(new Models.Property(SHIPS_IN_PROPERTY, describeShipsIn(where)));
  for (const dir of pkg.dirs) component.properties.add(new Models.Property(PATH_PROPERTY, dir));
  return component;
}

/** The SBOM as JSON text (2-space indented, lists sorted). */
export function makeBom(input: BomInput): string {
  const appComponent = new Models.Component(Enums.ComponentType.Application, input.app.name, {
    bomRef: `${input.app.name}@${input.app.version}`,
    version: input.app.version,
    ...(input.app.description ? { description: input.app.description } : {}),
  });
  const tools = new Models.Tools();
  for (const tool of input.tools)
    tools.components.add(
      new Models.Component(Enums.ComponentType.Application, tool.name, {
        ...(tool.group ? { group: tool.group } : {}),
        version: tool.version,
      }),
    );
  const bom = new Models.Bom({
    serialNumber: input.serialNumber,
    metadata: new Models.Metadata({ timestamp: input.timestamp, component: appComponent, tools }),
  });

  const byKey = new Map<string, Models.Component>();
  for (const pkg of input.packages) {
    const component = componentOf(pkg);
    byKey.set(`${pkg.name}@${pkg.version}`, component);
    bom.components.add(component);
  }
  for (const pkg of input.packages) {
    const component = byKey.get(`${pkg.name}@${pkg.version}`)!;
    for (const dep of pkg.dependsOn) {
      const target = byKey.get(dep);
      if (target) component.dependencies.add(target.bomRef);
    }
    if (pkg.direct) appComponent.dependencies.add(component.bomRef);
  }

  const serializer = new Serialize.JsonSerializer(new Serialize.JSON.Normalize.Factory(Spec.Spec1dot6));
  return serializer.serialize(bom, { sortLists: true, space: 2 });
}
