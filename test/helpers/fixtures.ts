import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Fixtures copied into the repo with their licences (test/fixtures/*), never read from ../shared. */
export const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

export function fixtureFiles(folder: string): string[] {
  return readdirSync(`${FIXTURES}${folder}`)
    .filter((f) => f.endsWith('.json'))
    .sort();
}

/** The fixture whose file name starts with `prefix` (the edge case it shows). */
export function loadFixture(folder: string, prefix: string): unknown {
  const matches = fixtureFiles(folder).filter((f) => f.startsWith(prefix));
  if (matches.length !== 1) throw new Error(`${matches.length} fixtures start with ${prefix}`);
  return JSON.parse(readFileSync(`${FIXTURES}${folder}/${matches[0]}`, 'utf8'));
}
