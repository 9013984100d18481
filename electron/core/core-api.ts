import type { Job, SyncSummary } from '../../shared/ipc/contract.js';
import type { EventBus } from '../ipc/event-bus.js';
import type { Router } from '../ipc/router.js';
import type { SandboxOptions } from '../sandbox/server.js';
import type { SqliteStorage } from './cache/sqlite-storage.js';
import type { Profile } from './config/profiles.js';
import type { ConsentActions } from './consents/actions.js';
import type { ConsentExportInput } from './exports/consents-export.js';
import type { FileSink } from './exports/files.js';
import type { JobRegistry } from './jobs/jobs.js';
import type { Logger } from './log.js';
import type { SecretCipher } from './secrets/cipher.js';
import type { Storage } from './storage.js';
import type { StoreOpener } from './store-opener.js';
import type { People } from './people/people.js';

/**
 * The console's core, free of Electron: one profile's connection, cache, sync and the IPC
 * router over them. The Electron shell and the browser host both start exactly this.
 */
export interface CoreOptions {
  dataDir: string;
  host: 'electron' | 'browser' | 'team' | 'cli';
  /**
   * Whether reads build and use the in-memory read indexes (a console's many reads; default on).
   * The command line turns them off: SQL answers its one read sooner than an index of the whole
   * cache is built.
   */
  readIndexes?: boolean;
  appVersion: string;
  profileId?: string;
  /** Settings of the embedded sandbox, when the profile is the embedded one. */
  sandbox?: Omit<SandboxOptions, 'port'>;
  /**
   * The port the embedded sandbox had before the console reopened (profile switch, cache reset):
   * it comes back at the same URL, which the host printed at start. Any free port if it is taken.
   */
  sandboxPort?: number;
  /** Secret of a non-embedded profile when the vault has none (CDR_CONSOLE_CLIENT_SECRET). */
  clientSecret?: string;
  /** How secrets are encrypted at rest: the OS keychain in Electron, a key file elsewhere. */
  cipher?: SecretCipher;
  /** Sync on a schedule, every N minutes (off when absent). */
  syncEveryMinutes?: number;
  /**
   * Reopens the console on another profile, or on a new cache (Settings): given by the host that can
   * swap cores while it runs (core-host.ts); absent for the command line.
   */
  reopen?: (change: { profileId?: string; resetCache?: boolean }) => void;
  /** Where the core keeps what it syncs (default: the profile's SQLite cache; a team server gives PostgreSQL's). */
  store?: StoreOpener;
  /**
   * The desktop only: opens a team server's console in the window instead of this core (the address
   * is checked and kept first: team-client.ts). Absent elsewhere: client:connect is refused.
   */
  connectTeam?: (url: URL) => void;
  /** A team server's people (sign-in, users): the Users screen manages them; absent elsewhere. */
  people?: People;
  /** Where exported files go: a save dialog (Electron), a download (browser host); a folder of the data directory by default. */
  files?: FileSink;
  /**
   * The core's clock (the system's by default): what "now" is for reports, alerts, audit times and
   * exports. Tests give another to start a console on a given day (the rule 9.4 report's catch-up).
   */
  clock?: () => Date;
  log: Logger;
}

export interface Core {
  router: Router;
  actions: ConsentActions;
  /** The storage ports (the command line reads through them too). */
  stores: Storage;
  events: EventBus;
  profile: Profile;
  sandboxUrl: string | undefined;
  /** A sync; without `data`, Data API records are fetched as Settings say (on by default for the embedded sandbox). */
  sync(opts?: { full?: boolean; data?: boolean }): Promise<SyncSummary>;
  /** The SQLite cache under the ports, for tests and benchmarks that look at it directly. */
  cache: SqliteStorage['sqlite'] & Pick<SqliteStorage, 'releaseMemory' | 'indexesReady'>;
  jobs: JobRegistry;
  /** Audits an export made outside the router (the command line's consents --all). */
  recordExport(written: NonNullable<Job['result']>, input: ConsentExportInput): Promise<void>;
  close(): Promise<void>;
}
