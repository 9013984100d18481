import diff from 'microdiff';

/**
 * What changed between two versions of a consent, field by field: the path of each changed
 * field in words (useCase.scopes[2].name), its value before and after. Shared by the version
 * history on screen and the evidence pack, so both say the same thing.
 */
export interface FieldChange {
  path: string;
  kind: 'added' | 'removed' | 'changed';
  before: unknown;
  after: unknown;
}

export function pathText(path: readonly (string | number)[]): string {
  return path.reduce<string>((text, part) => (typeof part === 'number' ? `${text}[${part}]` : text ? `${text}.${part}` : part), '');
}

export function diffVersions(before: object, after: object): FieldChange[] {
  return diff(before as Record<string, unknown>, after as Record<string, unknown>).map((d) => ({
    path: pathText(d.path),
    kind: d.type === 'CREATE' ? 'added' : d.type === 'REMOVE' ? 'removed' : 'changed',
    before: d.type === 'CREATE' ? undefined : d.oldValue,
    after: d.type === 'REMOVE' ? undefined : d.value,
  }));
}

/** A value as one line of text for a diff table. */
export function valueText(value: unknown): string {
  if (value === undefined) return '(absent)';
  if (value === null) return 'null';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}
