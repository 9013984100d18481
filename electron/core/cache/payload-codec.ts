import { createHash } from 'node:crypto';
import type { Db } from './db.js';

/**
 * A compact, exact encoding of the JSON payloads the cache keeps (consent versions, event
 * extras), so the payload the API sent is stored once and small:
 *
 * - the key list of an object (its "shape") is stored once in `payload_parts` and referenced;
 * - a nested object or array of 64 bytes or more (a consent's use case with its scopes, repeated in
 *   thousands of consents) is stored once in `payload_parts` and referenced;
 * - values the caller keeps in columns anyway (an event's id, type, time) are left out and put
 *   back from the columns on decoding;
 * - optionally the remaining values as a whole become a part (the consent snapshot an event
 *   carries is the same in all events of that consent).
 *
 * Encoded form (JSON): [shapeId, coveredMask, rest] where rest is [refMask, ...values] or the id of
 * a part holding it; bit i of coveredMask says key i comes from the columns, bit j of refMask says
 * value j is a part id. An object with more than 50 keys, or any value that is not a plain JSON
 * object, is stored as [0, value]. Decoding gives back an object whose JSON text is the input's,
 * key order included (a property test checks it on arbitrary JSON).
 */
const MAX_KEYS = 50;
const PART_MIN = 64;
const CACHE_LIMIT = 20_000;

type Json = unknown;
export type Columns = Record<string, Json>;

export class PayloadCodec {
  private readonly idOf = new Map<string, number>();
  private readonly textOf = new Map<number, string>();
  private readonly parsedShape = new Map<number, string[]>();
  private readonly findStmt;
  private readonly insertStmt;
  private readonly readStmt;

  constructor(db: Db) {
    this.findStmt = db.prepare<[Buffer], { id: number }>('SELECT id FROM payload_parts WHERE hash = ?');
    this.insertStmt = db.prepare<[Buffer, string]>('INSERT INTO payload_parts (hash, json) VALUES (?, ?)');
    this.readStmt = db.prepare<[number], { json: string }>('SELECT json FROM payload_parts WHERE id = ?');
  }

  /** The id of a part (its JSON text), stored on first use. Must run inside the caller's transaction. */
  private part(json: string): number {
    const cached = this.idOf.get(json);
    if (cached !== undefined) return cached;
    const hash = createHash('sha1').update(json).digest();
    const id = this.findStmt.get(hash)?.id ?? Number(this.insertStmt.run(hash, json).lastInsertRowid);
    this.remember(id, json);
    return id;
  }

  private remember(id: number, json: string): void {
    if (this.idOf.size >= CACHE_LIMIT) {
      // Parts repeat in runs (one consent's events, one use case's consents): forgetting all is fine.
      this.idOf.clear();
      this.textOf.clear();
    }
    this.idOf.set(json, id);
    this.textOf.set(id, json);
  }

  private text(id: number): string {
    let json = this.textOf.get(id);
    if (json === undefined) {
      json = this.readStmt.get(id)?.json;
      if (json === undefined) throw new Error(`payload part ${id} is missing from the cache`);
      this.remember(id, json);
    }
    return json;
  }

  private shape(id: number): string[] {
    let keys = this.parsedShape.get(id);
    if (!keys) {
      keys = JSON.parse(this.text(id)) as string[];
      if (this.parsedShape.size >= 1000) this.parsedShape.clear();
      this.parsedShape.set(id, keys);
    }
    return keys;
  }

  /**
   * Encodes `value` (whose JSON text is `json`). `columns` holds what the caller stores in its own
   * columns: a key whose value there is identical (same JSON) is left out. `shareRest` stores the
   * remaining values as a part when they are long (events of one consent carry the same snapshot).
   */
  encode(value: Json, columns: Columns = {}, shareRest = false): string {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return `[0,${JSON.stringify(value)}]`;
    const obj = value as Record<string, Json>;
    // As JSON.stringify does: a key whose value is undefined is not part of the payload.
    const keys = Object.keys(obj).filter((k) => obj[k] !== undefined);
    if (keys.length > MAX_KEYS) return `[0,${JSON.stringify(value)}]`;
    let covered = 0;
    let refs = 0;
    const values: string[] = [];
    keys.forEach((k, i) => {
      const v = obj[k];
      if (Object.hasOwn(columns, k) && columns[k] === v && (v === null || typeof v !== 'object')) {
        covered += 2 ** i;
        return;
      }
      const text = JSON.stringify(v);
      if (v !== null && typeof v === 'object' && text.length >= PART_MIN) {
        refs += 2 ** values.length;
        values.push(String(this.part(text)));
      } else values.push(text);
    });
    const restText = `[${[refs, ...values].join(',')}]`;
    const rest = shareRest && restText.length >= PART_MIN ? String(this.part(restText)) : restText;
    return `[${this.part(JSON.stringify(keys))},${covered},${rest}]`;
  }

  decode(encoded: string, columns: Columns = {}): Json {
    const a = JSON.parse(encoded) as [number, Json, Json?];
    if (a[0] === 0) return a[1];
    const keys = this.shape(a[0]);
    const covered = a[1] as number;
    const rest = (typeof a[2] === 'number' ? JSON.parse(this.text(a[2])) : a[2]) as [number, ...Json[]];
    const refs = rest[0];
    const out: Record<string, Json> = {};
    // Defined, not assigned: a payload key named "__proto__" (JSON.parse makes it an own property)
    // must come back as that key, not set the object's prototype.
    const put = (k: string, v: Json) =>
      k === '__proto__' ? Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true }) : (out[k] = v);
    let j = 0;
    keys.forEach((k, i) => {
      if (Math.floor(covered / 2 ** i) % 2 === 1) put(k, Object.hasOwn(columns, k) ? columns[k] : undefined);
      else {
        const v = rest[j + 1];
        put(k, Math.floor(refs / 2 ** j) % 2 === 1 ? JSON.parse(this.text(v as number)) : v);
        j++;
      }
    });
    return out;
  }
}
