import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The console's own folder (where package.json and dist/ are), found from a module's URL by walking
 * up: the same answer from the sources (electron/host/cli.ts under tsx) and from the bundles
 * (dist/electron/host.mjs, dist/electron/start.mjs) that `npm start` and `npm run serve` run.
 */
export function appRoot(moduleUrl: string): string {
  let dir = dirname(fileURLToPath(moduleUrl));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'cdr-console') return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`The console's package.json was not found above ${fileURLToPath(moduleUrl)}`);
    dir = parent;
  }
}
