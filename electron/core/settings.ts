import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Settings } from '../../shared/ipc/contract.js';
import { DEFAULT_CONSENT_COLUMNS } from '../../shared/consents/columns.js';
import { writePrivateFile } from './data-dir.js';

/**
 * The user's preferences (theme, consent columns, saved views), in the data directory so they
 * survive restarts in both hosts — the browser host's origin changes with its port, so the
 * browser's own storage would forget them. Not CDR data. A damaged file is read as the defaults
 * and only replaced on the next save.
 */
export const DEFAULT_SETTINGS: Settings = {
  theme: 'auto',
  consentColumns: [...DEFAULT_CONSENT_COLUMNS],
  navCollapsed: false,
  timeZone: null,
  savedViews: [],
  teamViews: [],
  syncEveryMinutes: 15,
  syncData: false,
  bulkApprovalOver: 50,
};

export class SettingsStore {
  private readonly file: string;
  /**
   * `defaults` are the running profile's own (over DEFAULT_SETTINGS): the embedded sandbox syncs
   * its Data API records unless the user said otherwise, so a first run shows Products and Data
   * at once; an intermediary's profile does not until the user turns it on.
   */
  constructor(
    dataDir: string,
    private readonly defaults: Partial<Settings> = {},
  ) {
    this.file = join(dataDir, 'settings.json');
  }

  get(): Settings {
    return Settings.parse({ ...DEFAULT_SETTINGS, ...this.defaults, ...this.chosen() });
  }

  /** What the user chose (a setting never chosen is absent, so a host's own default applies). */
  chosen(): Partial<Settings> {
    if (!existsSync(this.file)) return {};
    try {
      const parsed = Settings.partial().safeParse(JSON.parse(readFileSync(this.file, 'utf8').replace(/^\uFEFF/, '')));
      return parsed.success
        ? (Object.fromEntries(Object.entries(parsed.data).filter(([, v]) => v !== undefined)) as Partial<Settings>)
        : {};
    } catch {
      return {};
    }
  }

  set(change: Partial<Settings>): Settings {
    const next = Settings.parse({ ...this.get(), ...change });
    // Only what the user chose is written: a setting left alone keeps following the defaults.
    writePrivateFile(this.file, `${JSON.stringify({ ...this.chosen(), ...change }, null, 2)}\n`);
    return next;
  }
}
