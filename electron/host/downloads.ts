import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { privateTempPath, type FileSink } from '../core/exports/files.js';

/**
 * Files the browser host offers for download: main writes an export to a private file, then
 * offers it once under an unguessable link that only this session's cookie can fetch. The file is
 * deleted when it has been downloaded, or after ten minutes, and any left by a crash at the next
 * start: exports hold CDR data.
 */
export interface Download {
  path: string;
  name: string;
  expires: number;
}

const TTL_MS = 10 * 60_000;

export class Downloads {
  private readonly entries = new Map<string, Download>();
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    for (const f of readdirSync(dir)) rmSync(join(dir, f), { force: true });
    this.timer = setInterval(() => this.sweep(), 60_000);
    this.timer.unref();
  }

  /** Where the core writes exports in the browser host. */
  sink(): FileSink {
    return {
      open: async (name) => {
        const path = privateTempPath(this.dir, name);
        return {
          path,
          deliver: async () => {
            const token = randomBytes(24).toString('base64url');
            this.entries.set(token, { path, name, expires: Date.now() + TTL_MS });
            return { download: { url: `/downloads/${token}`, name } };
          },
          discard: () => rmSync(path, { force: true }),
        };
      },
    };
  }

  /** The download behind a link, once: the link stops working when it is taken. */
  take(token: string): Download | undefined {
    const d = this.entries.get(token);
    this.entries.delete(token);
    if (d && d.expires < Date.now()) {
      rmSync(d.path, { force: true });
      return undefined;
    }
    return d;
  }

  private sweep(): void {
    for (const [token, d] of this.entries) {
      if (d.expires < Date.now()) {
        this.entries.delete(token);
        rmSync(d.path, { force: true });
      }
    }
  }

  close(): void {
    clearInterval(this.timer);
    for (const d of this.entries.values()) rmSync(d.path, { force: true });
    this.entries.clear();
  }
}
