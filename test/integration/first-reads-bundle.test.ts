// @vitest-environment node
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The page sends the first screen's reads (app/first-reads.ts) as soon as their code has arrived,
 * while the rest loads (issue 21): that code must stay small, without the contract's zod schemas,
 * React or the UI kit, else the reads wait for them (0.6 s of the cold start at 30,000 consents).
 * Read from the build (`npm run build`): the chunks the first reads' chunk imports, transitively,
 * and the modules in them (dist/meta/vite-renderer.json).
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const assets = join(root, 'dist', 'renderer', 'assets');
const meta = join(root, 'dist', 'meta', 'vite-renderer.json');

/** The chunks whose names start with `name` and what they import statically, transitively, and the modules in them. */
function staticClosure(name: RegExp): { files: Set<string>; modules: string[] } {
  expect(existsSync(meta), 'run npm run build first').toBe(true);
  const outputs = (JSON.parse(readFileSync(meta, 'utf8')) as { outputs: Record<string, { bytes: number; modules: string[] }> }).outputs;
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(join(assets, file), 'utf8');
    // Static imports only (`from"./x.js"`, `import"./x.js"`): what must arrive before the module runs.
    for (const m of code.matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)) visit(m[1]!);
  };
  const entries = readdirSync(assets).filter((f) => name.test(f));
  expect(entries.length).toBeGreaterThan(0);
  entries.forEach(visit);
  return { files: seen, modules: [...seen].flatMap((f) => outputs[`dist/renderer/assets/${f}`]?.modules ?? []) };
}

describe("the first reads' code in the build", () => {
  it('loads without zod, React, react-query or Mantine, in under 60 kB', () => {
    const { files: seen, modules } = staticClosure(/^first-reads-.*\.js$/);
    expect(modules).toContain('renderer/src/app/first-reads.ts');
    expect(
      modules.filter((m) => /node_modules\/(zod|react|react-dom|@tanstack|@mantine)\//.test(m) || /shared\/ipc\/contract/.test(m)),
    ).toEqual([]);
    const bytes = [...seen].reduce((n, f) => n + readFileSync(join(assets, f)).length, 0);
    expect(bytes).toBeLessThan(60_000);
  });

  it("the page's entry loads without the UI kit or React, so the first reads' code is fetched at once", () => {
    // The entry's static imports arrive and run before it does: with Mantine's chunk among them (its
    // style sheet was in the chunk's group), the first reads waited for 405 kB to load and run.
    const { files: seen, modules } = staticClosure(/^index-.*\.js$/);
    expect(modules).toContain('renderer/src/main.tsx');
    expect(modules.filter((m) => /node_modules\/(react|react-dom|@tanstack|@mantine|@floating-ui)\//.test(m))).toEqual([]);
    const bytes = [...seen].reduce((n, f) => n + readFileSync(join(assets, f)).length, 0);
    expect(bytes).toBeLessThan(60_000);
  });

  it("the shell's and the consent list's code hold neither the contract's schemas nor zod (role rules load when a role is checked)", () => {
    for (const entry of [/^start-.*\.js$/, /^ConsentsScreen-.*\.js$/]) {
      const { modules } = staticClosure(entry);
      expect(modules.length).toBeGreaterThan(1);
      expect(
        modules.filter((m) => /node_modules\/zod\//.test(m) || /shared\/ipc\/contract/.test(m) || /shared\/schemas\//.test(m)),
      ).toEqual([]);
    }
  });

  it("the contract's code (the role rules, loaded on every screen) brings no screen with it", () => {
    // Left to Rolldown, the sync summary the contract re-exports went into the Overview's chunk: loading
    // the role rules loaded the Overview screen, its charts' code and all (vite.config.ts, sync-summary).
    const { modules } = staticClosure(/^contract-.*\.js$/);
    expect(modules).toContain('shared/ipc/contract.ts');
    expect(modules.filter((m) => /Screen\.tsx$|renderer\/src\/ui\/chart\/|node_modules\/(react-dom|@mantine|uplot)\//.test(m))).toEqual([]);
  });
});
