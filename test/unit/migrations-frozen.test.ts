import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../electron/core/cache/migrations.js';
import { PG_MIGRATIONS } from '../../electron/core/postgres/migrations.js';

/**
 * The migration history is frozen once shipped (issue 37): a database migrated by an earlier
 * release must end with the same schema as a new one, so a shipped migration is never edited — a
 * change is a new migration. Each engine keeps one file per migration (electron/core/cache/migrations/,
 * electron/core/postgres/migrations/), literal SQL (the PostgreSQL schema was once built from the
 * table modules' live constants, so editing a module rewrote migration 1), and this test holds the
 * SHA-256 of every shipped file (test/fixtures/shipped-migrations.json).
 *
 * Adding a migration: write its file, then add its name and hash (this test prints them) to the
 * manifest in the same change.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const manifest = JSON.parse(readFileSync(join(root, 'test/fixtures/shipped-migrations.json'), 'utf8')) as Record<
  'sqlite' | 'postgres',
  Record<string, string>
>;
const FOLDERS = { sqlite: 'electron/core/cache/migrations', postgres: 'electron/core/postgres/migrations' } as const;

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path, 'utf8').replace(/\r\n/g, '\n')).digest('hex');
const filesOf = (engine: keyof typeof FOLDERS) =>
  readdirSync(join(root, FOLDERS[engine]))
    .filter((f) => f.endsWith('.ts'))
    .sort();

describe('the migration history', () => {
  for (const engine of ['sqlite', 'postgres'] as const) {
    it(`${engine}: every shipped migration is as it shipped, none is missing, and a new one is recorded`, () => {
      const files = filesOf(engine);
      const problems: string[] = [];
      for (const [file, hash] of Object.entries(manifest[engine])) {
        if (!files.includes(file))
          problems.push(`${FOLDERS[engine]}/${file} shipped and is gone: a shipped migration is never removed or renamed`);
        else if (sha256(join(root, FOLDERS[engine], file)) !== hash)
          problems.push(`${FOLDERS[engine]}/${file} changed after it shipped: restore it, and write the change as a new migration`);
      }
      for (const file of files.filter((f) => !(f in manifest[engine])))
        problems.push(
          `${FOLDERS[engine]}/${file} is new: record it in test/fixtures/shipped-migrations.json as "${file}": "${sha256(join(root, FOLDERS[engine], file))}"`,
        );
      expect(problems).toEqual([]);
    });
  }

  it('runs the files in their order, one version each, numbered from 1 without a gap', () => {
    expect(MIGRATIONS).toHaveLength(filesOf('sqlite').length);
    expect(filesOf('sqlite').map((f) => Number(f.slice(0, 2)))).toEqual(MIGRATIONS.map((_, i) => i + 1));
    expect(PG_MIGRATIONS).toHaveLength(filesOf('postgres').length);
    expect(PG_MIGRATIONS.map((m) => m.version)).toEqual(PG_MIGRATIONS.map((_, i) => i + 1));
    expect(filesOf('postgres').map((f) => Number(f.slice(0, 2)))).toEqual(PG_MIGRATIONS.map((m) => m.version));
  });

  it('builds no migration from the live code’s constants: each PostgreSQL file imports nothing but types and the search folding it backfills with', () => {
    for (const file of filesOf('postgres')) {
      const text = readFileSync(join(root, FOLDERS.postgres, file), 'utf8');
      const imports = [...text.matchAll(/^import (?!type )(.*) from '(.*)';$/gm)].map((m) => m[2]);
      expect(
        imports.filter((from) => from !== '../consents-search.js'),
        file,
      ).toEqual([]);
      expect(text, file).not.toMatch(/_SCHEMA\b/);
    }
  });
});
