import type { NormalizationNote } from './notes.js';
import { normalizeRecord, recordKind, type NormalizedRecord, type RecordKind, type SourceShape } from './record.js';
import { isObject, MAX_NESTING, tooDeep, type Json, type JsonObject } from './values.js';

/**
 * A whole payload → the 2.0.0 form: a bare record, a list of records, or a response envelope
 * holding one record (`{data: {...}}`) or a list (`{data: {products: [...]}}`, `{data: {accounts: [...]}}`).
 * The envelope (links, meta) is kept; notes carry paths from the payload's root.
 */
export class NormalizeError extends Error {
  readonly path: string;
  constructor(path: string, message: string) {
    super(`${path || '(root)'}: ${message}`);
    this.name = 'NormalizeError';
    this.path = path;
  }
}

export interface RecordSummary {
  path: string;
  kind: RecordKind;
  shape: SourceShape;
  notes: number;
}

export interface NormalizedPayload {
  data: Json;
  notes: NormalizationNote[];
  records: RecordSummary[];
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object without productId or accountId' : `a ${typeof value}`;
}

export function normalizePayload(input: unknown): NormalizedPayload {
  const deep = tooDeep(input);
  if (deep) throw new NormalizeError(deep === '(root)' ? '' : deep, `nested more than ${MAX_NESTING} levels deep; refused`);
  const notes: NormalizationNote[] = [];
  const records: RecordSummary[] = [];
  const one = (value: unknown, path: string): JsonObject => {
    if (!recordKind(value))
      throw new NormalizeError(
        path,
        `expected a banking product or account (an object with productId or accountId), got ${describe(value)}`,
      );
    const result: NormalizedRecord = normalizeRecord(value as JsonObject);
    for (const n of result.notes) notes.push({ ...n, path: path ? `${path}.${n.path}` : n.path });
    records.push({ path, kind: result.kind, shape: result.shape, notes: result.notes.length });
    return result.data;
  };
  const list = (value: Json[], path: string): Json[] => value.map((item, i) => one(item, `${path}[${i}]`));

  let data: Json;
  if (Array.isArray(input)) data = list(input as Json[], '');
  else if (isObject(input) && 'data' in input) {
    const inner = input.data;
    if (recordKind(inner)) data = { ...input, data: one(inner, 'data') };
    else if (isObject(inner) && (Array.isArray(inner.products) || Array.isArray(inner.accounts))) {
      const key = Array.isArray(inner.products) ? 'products' : 'accounts';
      data = { ...input, data: { ...inner, [key]: list(inner[key] as Json[], `data.${key}`) } };
    } else
      throw new NormalizeError('data', `expected a product or account record, or data.products / data.accounts, got ${describe(inner)}`);
  } else if (isObject(input)) data = one(input, '');
  else throw new NormalizeError('', `expected a JSON object or list, got ${describe(input)}`);
  return { data, notes, records };
}
