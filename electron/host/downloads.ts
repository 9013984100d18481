import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { privateTempPath, type FileSink } from '../core/exports/files.js';
import { currentCaller } from '../ipc/request-context.js';

/**
 * Files the browser host offers for download: main writes an export to a private file, then
 * offers it once under an unguessable link that only this session's cookie can fetch. The file is
 * deleted when it has been downloaded, or after ten minutes, and any left by a crash at the next
 * start: exports hold CDR data.
 *
 * A download of an export a signed-in person started is theirs alone (`owner`): every console
 * hears of every job, link included, but a viewer's console taking a compliance officer's export
 * would be an export of customer data the viewer's role does not allow.
 */
export interface Download {
  path: string;
  name: string;
  expires: number;
  /** The id of the person whose request started the export; null when nobody was identified. */
  owner: string | null;
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
        // Called within the export's request (its job carries the request's context).
        const owner = currentCaller()?.userId ?? null;
        const path = privateTempPath(this.dir, name);
        return {
          path,
          deliver: async () => {
            const token = randomBytes(24).toString('base64url');
            this.entries.set(token, { path, name, expires: Date.now() + TTL_MS, owner });
            return { download: { url: `/downloads/${token}`, name } };
          },
          discard: () => rmSync(path, { force: true }),
        };
      },
    };
  }

  /**
   * The download behind a link, once: the link stops working when it is taken. `taker`: who asks
   * (the person the host identified, or null); another person's download is not theirs to take,
   * and stays for its owner.
   */
  take(token: string, taker: string | null = null): Download | undefined {
    const d = this.entries.get(token);
    if (d?.owner && d.owner !== taker) return undefined;
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
