import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A temporary directory removed when the benchmark process exits. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cdr-bench-'));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
