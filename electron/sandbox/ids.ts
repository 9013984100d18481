import { createHash } from 'node:crypto';

/**
 * Deterministic identifiers: the same (seed, kind, index) always gives the same UUID, so a
 * seed reproduces the sandbox's data byte for byte whatever page size reads it.
 */
export function stableUuid(seed: number, kind: string, index: number | string): string {
  const h = createHash('sha256').update(`${seed}\u0000${kind}\u0000${index}`).digest();
  h[6] = (h[6]! & 0x0f) | 0x40; // version 4 layout, so validators accept it
  h[8] = (h[8]! & 0x3f) | 0x80; // RFC 4122 variant
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

export function stableHex(seed: number, kind: string, index: number | string, length: number): string {
  return createHash('sha256').update(`${seed}\u0000${kind}\u0000${index}`).digest('hex').slice(0, length);
}
