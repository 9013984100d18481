import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Job } from '../../../shared/ipc/contract.js';

/**
 * Where a file the user exports goes. Main writes it (the renderer never holds a whole export):
 * in Electron to the path the user picks in a save dialog; in the browser host to a private
 * temporary file offered once as a download; from the command line to the path given.
 */
export interface SaveTarget {
  /** The file main writes to. */
  path: string;
  /** Called once the file is complete: what the user is told (and, in the browser host, the link). */
  deliver(): Promise<NonNullable<Job['result']>>;
  /** Called when writing failed or was cancelled: nothing half-written is left behind. */
  discard(): void;
}

export interface FileSink {
  /** Where to write a file suggested as `name`; null when the user cancelled the save dialog. */
  open(name: string): Promise<SaveTarget | null>;
}

/** Writes into a folder and reports the path: the command line, and tests. */
export function folderSink(dir: string): FileSink {
  return {
    async open(name) {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const path = join(dir, basename(name));
      return {
        path,
        deliver: async () => ({ path }),
        discard: () => rmSync(path, { force: true }),
      };
    },
  };
}

/** A file name safe on every platform, from parts that may hold anything (ids, dates). */
export function safeFileName(...parts: string[]): string {
  return parts
    .join('-')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/-+/g, '-')
    .slice(0, 120);
}

/** A private, unique path in `dir` for a file the user will download under `name`. */
export function privateTempPath(dir: string, name: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return join(dir, `${randomUUID()}-${basename(name)}`);
}
