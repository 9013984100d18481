/**
 * A small seeded PRNG (sfc32, seeded through splitmix32). Each record gets its own stream from
 * (seed, kind, index), so any record can be produced without the ones before it, fast: reseeding
 * costs a few multiplications, where faker's Mersenne Twister costs a 624-word initialisation.
 */
function splitmix32(state: number): () => number {
  return () => {
    state = (state + 0x9e3779b9) | 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/** FNV-1a of a short string: turns a kind name into a number, once per kind. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number, kind: number, index: number) {
    const mix = splitmix32((Math.imul(seed | 0, 0x27d4eb2f) ^ Math.imul(kind, 0x165667b1) ^ Math.imul(index | 0, 0x9e3779b1)) | 0);
    this.a = mix();
    this.b = mix();
    this.c = mix();
    this.d = mix() | 1;
    for (let i = 0; i < 8; i++) this.next();
  }

  /** A uniform 32-bit unsigned integer. */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  float(): number {
    return this.next() / 4294967296;
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.float() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.float() * items.length)]!;
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  digits(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += String(this.next() % 10);
    return s;
  }

  hex(n: number): string {
    let s = '';
    while (s.length < n) s += this.next().toString(16).padStart(8, '0');
    return s.slice(0, n);
  }
}
