import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { dataRecordTotal, type SyncProgress, type SyncSummary } from '../../shared/ipc/contract.js';
import type { IpcErrorCode } from '../../shared/ipc/errors.js';
import { createRouter, CoreError, type Router } from '../ipc/router.js';
import { EventBus } from '../ipc/event-bus.js';
import { SANDBOX_DEFAULTS, startSandbox, type RunningSandbox, type SandboxOptions } from '../sandbox/server.js';
import { ConsentClient } from './api/consent-client.js';
import { ApiError } from './api/errors.js';
import { testConnection } from './api/connection-test.js';
import { DataRepo } from './cache/data-repo.js';
import { applyRetention, retentionLog } from './retention/retention.js';
import { createClientCredentialsTokenSource } from './auth/token-source.js';
import {
  cacheErrorOf,
  checkIntegrity,
  checkIntegrityInBackground,
  isCacheDamage,
  markOpen,
  moveCacheAside,
  storageProblem,
  openCache,
  type CacheError,
  type Db,
} from './cache/database.js';
import { ConsentsRepo, SyncStateRepo } from './cache/consents-repo.js';
import { EventsRepo, ReferenceRepo } from './cache/events-repo.js';
import { ConsentActions } from './actions/consent-actions.js';
import { AuditLog } from './audit/audit-log.js';
import { anchorFileOf, AuditAnchorFile } from './audit/audit-anchor.js';
import { restrictToOwner } from './data-dir.js';
import { describeOperator, OperatorStore } from './operator.js';
import { loadProfiles, pickProfile, SANDBOX_CLIENT_SECRET, type Profile } from './config/profiles.js';
import type { Logger } from './log.js';
import { createKeyFileCipher, type SecretCipher } from './secrets/cipher.js';
import { secretNames, SecretVault } from './secrets/vault.js';
import { LAST_SYNC_KEY } from './sync/consent-sync.js';
import { revive, type StoredEntity, type SyncJob } from './sync/sync-job.js';
import { WorkerThread } from './worker/host.js';
import { ConsentQuery } from './cache/consent-query.js';
import { DataQuery } from './cache/data-query.js';
import { writeDataExport, writeProductsExport } from './exports/data-export.js';
import { EventQuery } from './cache/event-query.js';
import { AuditQuery } from './audit/audit-query.js';
import { complianceCsvRows, complianceHtml, complianceReport } from './reports/compliance.js';
import { writeAuditExport, writeEventsExport, writeText } from './exports/log-exports.js';
import { csvRows } from './exports/csv.js';
import { JobRegistry, type JobContext } from './jobs/jobs.js';
import { folderSink, safeFileName, type FileSink } from './exports/files.js';
import { exportConsentsToFile, writeBulkResults, type ConsentExportInput } from './exports/consents-export.js';
import { writeEvidencePack } from './exports/evidence-pack.js';
import { SettingsStore } from './settings.js';
import { profileSummaries, removeProfile, saveProfile } from './config/profile-store.js';
import { readConsentDetail } from './consent-detail.js';
import type { Job, Settings } from '../../shared/ipc/contract.js';

type JobResult = NonNullable<Job['result']>;

/**
 * The console's core, free of Electron: one profile's connection, cache, sync and the IPC
 * router over them. The Electron shell and the browser host both start exactly this.
 */
export interface CoreOptions {
  dataDir: string;
  host: 'electron' | 'browser' | 'cli';
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
  /** Where exported files go: a save dialog (Electron), a download (browser host); a folder of the data directory by default. */
  files?: FileSink;
  log: Logger;
}

export interface Core {
  router: Router;
  actions: ConsentActions;
  audit: AuditLog;
  events: EventBus;
  profile: Profile;
  sandboxUrl: string | undefined;
  /** A sync; without `data`, Data API records are fetched as Settings say (on by default for the embedded sandbox). */
  sync(opts?: { full?: boolean; data?: boolean }): Promise<SyncSummary>;
  /** Read access for the command line (the UI goes through the router). */
  cache: {
    consents: ConsentsRepo;
    query: ConsentQuery;
    events: EventsRepo;
    data: DataRepo;
    /** Drops the pages the cache connection holds in memory (the benchmark's cold reads; memory pressure). */
    releaseMemory(): void;
    /** Resolves once the in-memory read indexes (consent list, events) match the cache. */
    indexesReady(): Promise<void>;
  };
  jobs: JobRegistry;
  /** Audits an export made outside the router (the command line's consents --all). */
  recordExport(written: JobResult, input: ConsentExportInput): void;
  /** What retention deleted or de-identified, and why (the data itself is gone). */
  retentionLog(consentId?: string): ReturnType<typeof retentionLog>;
  close(): Promise<void>;
}

/** The last sync's summary, kept in the cache's sync state for the overview. */
const LAST_SUMMARY_KEY = 'sync.lastSummary';

/** Where the embedded sandbox's simulated data holder sends the consumer back (never visited: see sandbox:approve). */
const EMBEDDED_REDIRECT_URI = 'https://recipient.sandbox.invalid/consent-callback';

/** The audit log's words for an export of consents: how many, what, which view. */
function describeConsentExport(r: NonNullable<Job['result']>, input: ConsentExportInput): string {
  return `${r.rows ?? 0} consents exported as ${input.format.toUpperCase()} (${r.bytes ?? 0} bytes, sha256 ${r.sha256 ?? '?'}); filter ${JSON.stringify(input.filter)}; sort ${input.sort.field} ${input.sort.direction}`;
}

/** The cache file of a profile (one database per connection profile). */
export function cacheFileOf(dataDir: string, profileId: string): string {
  return join(dataDir, 'profiles', profileId, 'cache.sqlite');
}

/** Moves a profile's cache aside (kept, renamed) so the next start begins empty and re-syncs. */
export function resetCache(dataDir: string, profileId?: string): string | undefined {
  const profile = pickProfile(loadProfiles(dataDir), profileId);
  const file = cacheFileOf(dataDir, profile.id);
  return existsSync(file) ? moveCacheAside(file) : undefined;
}

/**
 * The consumer's approval at the embedded sandbox's simulated data holder: visits the authorization
 * URI over HTTP, as a browser would, and returns the signed response JWT it redirects with.
 */
async function approveInSandbox(sandboxUrl: string, uri: string): Promise<string> {
  if (new URL(uri).origin !== new URL(sandboxUrl).origin)
    throw new CoreError('INVALID_INPUT', 'That authorization URI is not the embedded sandbox’s data holder.');
  const res = await fetch(uri, { redirect: 'manual' });
  const location = res.headers.get('location');
  if (res.status !== 302 || !location) {
    throw new CoreError('UPSTREAM', `The simulated data holder refused: ${(await res.text()).slice(0, 300) || res.status}`);
  }
  const response = new URL(location).searchParams.get('response');
  if (!response) throw new CoreError('UPSTREAM', 'The simulated data holder redirected without a response JWT.');
  return response;
}

/** The full integrity check of a profile's cache, on demand (`cli cache check`); undefined when there is no cache. */
export function checkCache(dataDir: string, profileId?: string): { file: string; problem: CacheError | null } | undefined {
  const profile = pickProfile(loadProfiles(dataDir), profileId);
  const file = cacheFileOf(dataDir, profile.id);
  if (!existsSync(file)) return undefined;
  const key = new SecretVault(dataDir, createKeyFileCipher(dataDir)).get(secretNames.cacheKey(profile.id));
  return { file, problem: checkIntegrity(file, key ?? undefined) };
}

export function errorCodeFor(error: unknown): IpcErrorCode {
  if (!(error instanceof ApiError)) return 'INTERNAL';
  switch (error.kind) {
    case 'Network':
      return 'OFFLINE';
    case 'Unauthorized':
      return 'UNAUTHORIZED';
    case 'Forbidden':
      return 'FORBIDDEN';
    case 'NotFound':
      return 'NOT_FOUND';
    case 'Schema':
      return 'SCHEMA';
    default:
      return 'UPSTREAM';
  }
}

/** A non-embedded profile's client secret or private key, from the vault (or the environment's secret for this run). */
function storedCredential(profile: Profile, vault: SecretVault, fallback?: string): string {
  const usesKey = profile.clientAuth.method === 'private_key_jwt';
  const stored = usesKey ? vault.get(secretNames.privateKey(profile.id)) : (vault.get(secretNames.clientSecret(profile.id)) ?? fallback);
  if (!stored) {
    throw new CoreError(
      'UNAUTHORIZED',
      usesKey
        ? `Profile "${profile.id}" has no private key: add it in Settings, or with npm run -s cli -- profiles add … --private-key FILE.`
        : `Profile "${profile.id}" has no client secret: add it in Settings, or set CDR_CONSOLE_CLIENT_SECRET for this run.`,
    );
  }
  return stored;
}

function tokenOptionsOf(profile: Profile, tokenUrl: string, secret: string) {
  const auth = profile.clientAuth;
  return {
    tokenUrl,
    clientId: profile.clientId,
    clientSecret: secret,
    method: auth.method,
    ...(auth.method === 'private_key_jwt' ? { keyId: auth.keyId, algorithm: auth.algorithm } : {}),
    // The embedded sandbox grants every scope, Data API included; profiles written by older versions listed fewer.
    scopes: profile.embedded ? [] : profile.scopes,
  };
}

export async function startCore(opts: CoreOptions): Promise<Core> {
  const profile = pickProfile(loadProfiles(opts.dataDir), opts.profileId);
  const vault = new SecretVault(opts.dataDir, opts.cipher ?? createKeyFileCipher(opts.dataDir));
  let sandbox: RunningSandbox | undefined;
  let baseUrl: string;
  let tokenUrl: string;
  let secret: string;
  const profileDir = join(opts.dataDir, 'profiles', profile.id);
  mkdirSync(profileDir, { recursive: true, mode: 0o700 });
  // Owner-only, whatever the umask or an earlier version left (see data-dir.ts).
  restrictToOwner(opts.dataDir);
  if (profile.embedded) {
    // The embedded sandbox keeps what the user changed (revocations, new consents, its clock) in
    // the data directory, per seed and size, so it is still there tomorrow.
    const seed = opts.sandbox?.seed ?? SANDBOX_DEFAULTS.seed;
    const count = opts.sandbox?.consents ?? SANDBOX_DEFAULTS.consents;
    const sandboxOptions: SandboxOptions = {
      // Its clock follows real time ("expires in 3 days" means something), unless a test pins it.
      realTime: !opts.sandbox?.clockOrigin,
      ...opts.sandbox,
      clientId: profile.clientId,
      clientSecret: SANDBOX_CLIENT_SECRET,
      stateFile: join(profileDir, `sandbox-state-seed${seed}-n${count}.json`),
    };
    sandbox = opts.sandboxPort
      ? await startSandbox({ ...sandboxOptions, port: opts.sandboxPort }).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'EADDRINUSE') throw error;
          return startSandbox(sandboxOptions);
        })
      : await startSandbox(sandboxOptions);
    baseUrl = sandbox.url;
    tokenUrl = `${sandbox.url}/oauth2/token`;
    secret = SANDBOX_CLIENT_SECRET;
    opts.log.info(`embedded sandbox started at ${sandbox.url}`);
  } else {
    baseUrl = profile.consentApiBaseUrl!;
    tokenUrl = profile.tokenUrl!;
    secret = storedCredential(profile, vault, opts.clientSecret);
  }

  const tokenOptions = tokenOptionsOf(profile, tokenUrl, secret);
  const tokens = createClientCredentialsTokenSource(tokenOptions);
  const client = new ConsentClient({ baseUrl, tokens });
  const dataApiBaseUrl = profile.embedded ? baseUrl : (profile.dataApiBaseUrl ?? baseUrl);

  let db: Db;
  const cacheFile = cacheFileOf(opts.dataDir, profile.id);
  const cacheKey = vault.getOrCreate(secretNames.cacheKey(profile.id));
  // A new cache file, or a console that never anchored this cache's audit log: no anchor yet.
  const freshCache = !existsSync(cacheFile);
  const anchorKeyExisted = vault.has(secretNames.auditAnchorKey(profile.id));
  const anchorKey = vault.getOrCreate(secretNames.auditAnchorKey(profile.id));
  try {
    db = openCache(cacheFile, cacheKey);
  } catch (error) {
    await sandbox?.close();
    throw error;
  }
  // The full integrity check never delays the start: it runs in the background, and only when the
  // last process that had the cache open ended without closing it.
  const openMark = markOpen(cacheFile);
  let cacheDamage: CacheError | null = null;
  const damaged = (problem: CacheError) => {
    cacheDamage = problem;
    lastSyncError = problem.message;
    opts.log.error('the cache is damaged', problem);
  };
  const integrity = openMark.uncleanBefore ? checkIntegrityInBackground(cacheFile, cacheKey) : undefined;
  if (integrity) opts.log.info('the cache was not closed last time: checking every page in the background');
  integrity?.result.then(
    (problem) => problem && damaged(problem),
    () => undefined,
  );
  const consents = new ConsentsRepo(db);
  // A first load that was killed left the consents' secondary indexes to build: before any read or sync.
  if (consents.finishFirstLoad()) opts.log.info('built the consent indexes an interrupted first sync left to build');
  const query = new ConsentQuery(db, { onIndexError: (error) => opts.log.error('the consent list index could not be built', error) });
  const eventQuery = new EventQuery(db, { onIndexError: (error) => opts.log.error('the events index could not be built', error) });
  const auditQuery = new AuditQuery(db);
  const eventsRepo = new EventsRepo(db);
  const reference = new ReferenceRepo(db);
  const dataRepo = new DataRepo(db);
  const dataQuery = new DataQuery(db);
  const state = new SyncStateRepo(db);
  const events = new EventBus();
  const audit = new AuditLog(db, undefined, {
    file: new AuditAnchorFile(anchorFileOf(cacheFile), anchorKey),
    fresh: freshCache || !anchorKeyExisted,
  });
  const operators = new OperatorStore(opts.dataDir);
  const actions = new ConsentActions({ db, client, consents, events: eventsRepo, audit, operator: () => operators.get() });
  const settings = new SettingsStore(opts.dataDir, profile.embedded ? { syncData: true } : {});
  const files = opts.files ?? folderSink(join(opts.dataDir, 'exports'));
  const jobs = new JobRegistry((job) => events.emit('jobs:progress', job));
  const operatorName = () => describeOperator(operators.get());

  /** Runs a bulk revocation job (new, or resumed after a restart), reporting each item. */
  const bulkRevokeRun = (jobId: string) => async (ctx: JobContext) => {
    const report = () => {
      const counts = actions.bulkCounts(jobId);
      ctx.progress({ counts, done: counts.revoked + counts['already-inactive'] + counts.failed });
    };
    report();
    await actions.runBulkRevoke(jobId, {
      perSecond: () => ctx.perSecond ?? 5,
      signal: ctx.signal,
      whilePaused: () => ctx.whilePaused(),
      onItem: () => {
        report();
        events.emit('cache:changed', { entity: 'consents', count: 1 });
      },
    });
    report();
    const counts = actions.bulkCounts(jobId);
    if (counts.pending && !ctx.signal.aborted) {
      online = false;
      throw new Error(
        `The intermediary could not be reached: ${counts.pending} consents are still pending. Resume the job when it is back.`,
      );
    }
    return null;
  };
  const bulkTitle = (n: number) => `Revoke ${n.toLocaleString('en-AU')} consent${n === 1 ? '' : 's'}`;
  // Bulk revocations a restart interrupted: listed as interrupted, resumable by the user.
  for (const jobId of actions.pendingBulkJobs()) {
    const job = actions.bulkJob(jobId)!;
    const counts = actions.bulkCounts(jobId);
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    jobs.registerInterrupted(
      {
        jobId,
        kind: 'bulk-revoke',
        title: bulkTitle(total),
        done: total - counts.pending,
        total,
        counts,
        startedAt: job.created,
        message: 'Interrupted when the console stopped; resume to revoke the consents still pending.',
        perSecond: 5,
      },
      { total, perSecond: 5, pausable: true, run: bulkRevokeRun(jobId) },
    );
  }

  const consentDetail = (consentId: string) =>
    readConsentDetail({ db, consents, events: eventsRepo, audit, reference, data: dataRepo }, consentId);

  /** Opens where an export goes (the user may cancel), runs it as a job, audits it. */
  async function startExport(
    kind: Exclude<Job['kind'], 'bulk-revoke'>,
    title: string,
    name: string,
    write: (path: string, ctx: JobContext) => Promise<JobResult>,
    audited: { target: string | null; describe: (r: JobResult) => string },
  ): Promise<{ jobId: string } | { cancelled: true }> {
    const target = await files.open(name);
    if (!target) return { cancelled: true };
    const job = jobs.start({
      kind,
      title,
      run: async (ctx) => {
        try {
          const written = await write(target.path, ctx);
          const delivered = await target.deliver();
          db.transaction(() =>
            audit.append({
              operator: operatorName(),
              action: kind,
              target: audited.target,
              reason: null,
              result: audited.describe(written),
            }),
          )();
          events.emit('cache:changed', { entity: 'audit', count: 1 });
          return { ...written, ...delivered };
        } catch (error) {
          target.discard();
          throw error;
        }
      },
    });
    return { jobId: job.jobId };
  }
  const online$ = (ok: boolean) => {
    online = ok;
  };
  /** Runs an action; its outcome also tells whether the intermediary is reachable. */
  async function act<T>(run: () => Promise<T>): Promise<T> {
    try {
      const result = await run();
      online$(true);
      events.emit('cache:changed', { entity: 'consents', count: 1 });
      return result;
    } catch (error) {
      if (error instanceof CoreError && error.code === 'OFFLINE') online$(false);
      throw error;
    }
  }

  let syncing: Promise<SyncSummary> | undefined;
  let online = false;
  let lastSyncError: string | null = null;

  let controller: AbortController | undefined;

  // The sync runs on a worker thread with its own connection, started at the first sync: its
  // fetching, parsing and large write transactions never hold up the UI's reads or an action.
  let syncThread: WorkerThread | undefined;

  async function runSync(
    full = false,
    withData = false,
    consentIds?: string[],
    onProgress?: (p: SyncProgress) => void,
  ): Promise<SyncSummary> {
    controller = new AbortController();
    const signal = controller.signal;
    try {
      syncThread ??= new WorkerThread();
      const job = syncThread.run<SyncSummary>(
        'sync',
        {
          file: cacheFile,
          key: cacheKey,
          tokens: tokenOptions,
          consentApiBaseUrl: baseUrl,
          dataApiBaseUrl,
          ...(full ? { full } : {}),
          ...(withData ? { data: withData } : {}),
          ...(consentIds ? { consentIds } : {}),
        } satisfies SyncJob,
        (m) => {
          if (m.type === 'progress') {
            events.emit('sync:progress', m.progress as SyncProgress);
            onProgress?.(m.progress as SyncProgress);
          }
          if (m.type === 'stored') events.emit('cache:changed', { entity: m.entity as StoredEntity, count: m.count as number });
          if (m.type === 'warning') opts.log.info(`sync: ${String(m.message)}`);
        },
      );
      signal.addEventListener('abort', () => job.send({ type: 'cancel', reason: String((signal.reason as Error)?.message) }));
      const summary = await job.result.catch((error: Error) => {
        throw revive(error);
      });
      online = true;
      if (consentIds) return summary;
      // Ended consents lose their CDR data now (deleted or de-identified, by their post-usage action).
      summary.retention = applyRetention(db, audit).map(({ consentId, action, records }) => ({ consentId, action, records }));
      if (summary.retention.length) events.emit('cache:changed', { entity: 'data', count: summary.retention.length });
      lastSyncError = summary.failures.length ? summary.failures.map((f) => `${f.phase}: ${f.reason}`).join('; ') : null;
      // What the overview shows as "last sync of each part": kept with the cache, so it survives a restart.
      state.set(LAST_SUMMARY_KEY, JSON.stringify(summary));
      const c = summary.consents;
      opts.log.info(
        `sync finished (${summary.mode}${summary.resumed ? ', resumed' : ''}): ${c.fetched} consents fetched, ${c.new} new, ${c.changed} changed, ${c.unchanged} unchanged; ${summary.events.new} new events; ${summary.useCases} use cases; ${summary.dataHolders} data holders${summary.data ? `; ${dataRecordTotal(summary)} Data API records` : ''}${summary.retries ? `; ${summary.retries} retries` : ''}${summary.failures.length ? `; failed: ${lastSyncError}` : ''}`,
      );
      return summary;
    } catch (error) {
      if (signal.aborted) {
        events.emit('sync:progress', {
          phase: 'consents',
          done: 0,
          total: null,
          state: 'cancelled',
          message: 'Sync cancelled; what was stored so far is kept, and the next sync resumes.',
        });
        throw new CoreError('CANCELLED', 'Sync cancelled. What was stored so far is kept; the next sync continues from there.');
      }
      if (isCacheDamage(error)) throw error; // the router's guard gives it the recovery path
      const storage = storageProblem(cacheFile, error);
      if (storage) {
        lastSyncError = storage;
        opts.log.error('sync failed: the cache could not be written', error);
        throw new CoreError('CACHE', `Sync failed: ${storage}`);
      }
      online = !(error instanceof ApiError && error.kind === 'Network');
      lastSyncError = error instanceof Error ? error.message : String(error);
      opts.log.error('sync failed', error);
      throw new CoreError(errorCodeFor(error), `Sync failed: ${lastSyncError}`);
    } finally {
      controller = undefined;
    }
  }

  /** A profile the renderer names: one that does not exist is NOT_FOUND (the renderer's mistake), not an internal error. */
  function profileById(id: string): Profile {
    const file = loadProfiles(opts.dataDir);
    if (!file.profiles.some((p) => p.id === id)) throw new CoreError('NOT_FOUND', `There is no profile "${id}".`);
    return pickProfile(file, id);
  }

  const router = createRouter({
    onInternalError: (channel, error) => opts.log.error(`IPC ${channel} failed`, error),
    // SQLite reports a page that fails SQLCipher's authentication when it reads it: whichever
    // handler met it, the answer is a CACHE error with the recovery path.
    mapError: (error) => {
      if (!isCacheDamage(error)) return undefined;
      const problem = cacheErrorOf(cacheFile, error, true);
      damaged(problem);
      return new CoreError('CACHE', problem.message);
    },
    handlers: {
      'app:status': async () => ({
        appVersion: opts.appVersion,
        host: opts.host,
        profile: { id: profile.id, name: profile.name, environment: profile.environment, embedded: profile.embedded },
        lastSyncAt: state.get(LAST_SYNC_KEY),
        lastSyncError,
        online,
        syncing: syncing !== undefined,
        consentCount: query.total(),
        keyStorage: { kind: vault.cipher.kind, description: vault.cipher.description },
      }),
      'consents:list': async (input) => ({ rows: query.list(input) }),
      'consents:count': async ({ filter }) => query.count(filter),
      'consents:options': async () => query.options(),
      'consents:ids': async ({ filter, sort, limit }) => ({ ids: query.ids(filter, sort, limit), total: query.count(filter).total }),
      'consents:resolve': async ({ consentIds }) => query.resolve(consentIds),
      'consents:get': async ({ consentId }) => consentDetail(consentId),
      'consents:export': async (input) => {
        const name = safeFileName('consents', new Date().toISOString().slice(0, 19)) + `.${input.format}`;
        return startExport(
          'export-consents',
          `Export consents to ${input.format.toUpperCase()}`,
          name,
          (path, ctx) =>
            exportConsentsToFile(query, input, path, { signal: ctx.signal, onProgress: (done, total) => ctx.progress({ done, total }) }),
          {
            target: null,
            describe: (r) => describeConsentExport(r, input),
          },
        );
      },
      'evidence:export': async ({ consentId }) => {
        const detail = consentDetail(consentId);
        const generatedAt = new Date().toISOString();
        const name = `${safeFileName('evidence', consentId, generatedAt.slice(0, 19))}.zip`;
        return startExport(
          'evidence-pack',
          `Evidence pack of ${consentId}`,
          name,
          async (path) =>
            writeEvidencePack(
              {
                detail,
                verification: audit.verify(),
                generatedAt,
                generatedBy: operatorName(),
                appVersion: opts.appVersion,
                profile: { id: profile.id, name: profile.name, environment: profile.environment },
              },
              path,
            ),
          { target: consentId, describe: (r) => `evidence pack ${name} (${r.bytes ?? 0} bytes, sha256 ${r.sha256 ?? '?'})` },
        );
      },
      'consents:create': async (input) => act(() => actions.create(input)),
      'reference:list': async () => ({
        useCases: reference.useCases(),
        combinedUseCases: reference.combinedUseCases(),
        dataHolders: reference.dataHolders(),
      }),
      'jobs:list': async () => jobs.list(),
      'jobs:items': async ({ jobId, offset, limit }) => {
        if (!actions.bulkJob(jobId)) throw new CoreError('NOT_FOUND', `Job ${jobId} has no items.`);
        return actions.bulkItemsWindow(jobId, offset, limit);
      },
      'jobs:export': async ({ jobId, format }) => {
        const job = actions.bulkJob(jobId);
        if (!job) throw new CoreError('NOT_FOUND', `Job ${jobId} has no results to export.`);
        return startExport(
          'export-results',
          `Export results of ${jobs.get(jobId).title.toLowerCase()}`,
          `${safeFileName('bulk-revoke-results', jobId.slice(0, 8))}.${format}`,
          async (path) => writeBulkResults(actions, jobId, format, path),
          {
            target: null,
            describe: (r) => `results of bulk revocation ${jobId} exported as ${format.toUpperCase()} (${r.rows ?? 0} rows)`,
          },
        );
      },
      'jobs:control': async ({ jobId, action, perSecond }) => jobs.control(jobId, action, perSecond),
      'settings:get': async () => settings.get(),
      'settings:set': async (change) => {
        const next = settings.set(Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined)) as Partial<Settings>);
        if (change.syncEveryMinutes !== undefined || change.syncData !== undefined) reschedule();
        return next;
      },
      'sandbox:approve': async ({ uri }) => {
        if (!sandbox) throw new CoreError('FORBIDDEN', 'Simulated approval exists only in the embedded sandbox.');
        return { response: await approveInSandbox(sandbox.url, uri) };
      },
      'consents:revoke': async ({ consentId, reason }) => act(() => actions.revoke(consentId, reason)),
      'consents:update': async ({ consentId, change, reason }) => act(() => actions.update(consentId, change, reason)),
      'authorization:start': async ({ consentId, redirectUri, sharingEndDate }) =>
        act(() =>
          actions.startAuthorization(consentId, {
            redirectUri: redirectUri ?? profile.redirectUri ?? EMBEDDED_REDIRECT_URI,
            ...(sharingEndDate ? { sharingEndDate } : {}),
          }),
        ),
      'authorization:decode': async ({ response, consentId }) => actions.decodeResponse(response, consentId),
      'authorization:complete': async ({ consentId, response }) => act(() => actions.completeAuthorization(consentId, response)),
      'bulk:revoke': async ({ consentIds, reason, perSecond }) => {
        const jobId = actions.createBulkRevoke(consentIds, reason);
        const total = actions.bulkCounts(jobId).pending;
        jobs.start({
          jobId,
          kind: 'bulk-revoke',
          title: bulkTitle(total),
          total,
          perSecond: perSecond ?? 5,
          pausable: true,
          run: bulkRevokeRun(jobId),
        });
        return { jobId };
      },
      'events:failures': async ({ page, pageSize }) =>
        eventsRepo.ofTypes(
          ['WEBHOOK_SENDING_FAILED', 'WEBHOOK_SENDING_FAILED_CLIENT_ERROR', 'WEBHOOK_MAX_RETRIES_REACHED'],
          page,
          pageSize,
        ),
      'sync:cancel': async () => {
        if (!controller) return { cancelled: false };
        controller.abort(new Error('cancelled by the operator'));
        return { cancelled: true };
      },
      'data:list': async ({ kind, consentId, page, pageSize }) =>
        dataRepo.list({ kind, ...(consentId ? { consentId } : {}), page, pageSize }),
      'audit:list': async ({ target, limit }) => audit.entries({ ...(target ? { target } : {}), limit }),
      'audit:verify': async () => audit.verify(),
      'audit:export': async ({ format }) => ({ content: audit.export(format), entries: audit.entries().length }),
      'audit:query': async ({ filter, offset, limit }) => auditQuery.list(filter, offset, limit),
      'audit:options': async () => auditQuery.options(),
      'audit:exportFile': async ({ filter, format }) =>
        startExport(
          'export-audit',
          `Export the audit log to ${format.toUpperCase()}`,
          `${safeFileName('audit-log', new Date().toISOString().slice(0, 19))}.${format}`,
          (path, ctx) => writeAuditExport(auditQuery, audit.verify(), filter, format, path, ctx.signal),
          {
            target: null,
            describe: (r) =>
              `${r.rows ?? 0} audit entries exported as ${format.toUpperCase()} (sha256 ${r.sha256 ?? '?'}); filter ${JSON.stringify(filter)}`,
          },
        ),
      'events:list': async ({ filter, offset, limit }) => ({ rows: eventQuery.list({ filter, offset, limit }) }),
      'events:count': async ({ filter }) => eventQuery.count(filter),
      'events:days': async ({ filter, days }) => eventQuery.days(filter, days),
      'events:export': async ({ filter, format }) =>
        startExport(
          'export-events',
          `Export events to ${format.toUpperCase()}`,
          `${safeFileName('events', new Date().toISOString().slice(0, 19))}.${format}`,
          (path, ctx) => writeEventsExport(eventQuery, filter, format, path, ctx),
          {
            target: null,
            describe: (r) =>
              `${r.rows ?? 0} events exported as ${format.toUpperCase()} (sha256 ${r.sha256 ?? '?'}); filter ${JSON.stringify(filter)}`,
          },
        ),
      'webhooks:summary': async ({ filter }) => ({
        consentsAffected: eventQuery.consentsWithFailures(filter),
        byMessage: eventQuery.failuresByMessage(filter).slice(0, 500),
        byConsent: eventQuery.failuresByConsent(filter, 500),
      }),
      'reports:compliance': async (period) => complianceReport(db, period, new Date(), eventQuery),
      'reports:export': async ({ from, to, format }) => {
        const report = complianceReport(db, { from, to }, new Date(), eventQuery);
        return startExport(
          'export-report',
          `Compliance report ${from.slice(0, 10)} – ${to.slice(0, 10)} (${format.toUpperCase()})`,
          `${safeFileName('cdr-compliance-report', from.slice(0, 10), to.slice(0, 10))}.${format}`,
          async (path) =>
            writeText(
              path,
              format === 'csv'
                ? csvRows(complianceCsvRows(report))
                : complianceHtml(report, { profile: profile.name, operator: operatorName(), appVersion: opts.appVersion }),
              report.counts.length,
            ),
          {
            target: null,
            describe: (r) => `compliance report ${from} – ${to} exported as ${format.toUpperCase()} (sha256 ${r.sha256 ?? '?'})`,
          },
        );
      },
      'sync:last': async () => {
        const stored = state.get(LAST_SUMMARY_KEY);
        return stored ? (JSON.parse(stored) as SyncSummary) : null;
      },
      'profiles:list': async () => profileSummaries(opts.dataDir, vault, profile.id),
      'profiles:save': async (input) => {
        saveProfile(opts.dataDir, vault, input);
        opts.log.info(`profile ${input.id} saved${input.secret ? ' with a new credential' : ''}`); // never the secret itself
        return profileSummaries(opts.dataDir, vault, profile.id);
      },
      'profiles:remove': async ({ id }) => {
        removeProfile(opts.dataDir, vault, id, profile.id);
        return profileSummaries(opts.dataDir, vault, profile.id);
      },
      'profiles:switch': async ({ id }) => {
        if (!opts.reopen)
          throw new CoreError('INVALID_INPUT', 'This host cannot switch profiles while it runs: restart it with --profile.');
        const target = profileById(id);
        if (!target.embedded) storedCredential(target, vault, opts.clientSecret); // says which credential is missing, before anything closes
        setImmediate(() => opts.reopen!({ profileId: id }));
        return { switching: true as const };
      },
      'cache:reset': async () => {
        if (!opts.reopen)
          throw new CoreError('INVALID_INPUT', 'Reset the cache from the command line here: npm run -s cli -- cache reset.');
        setImmediate(() => opts.reopen!({ resetCache: true }));
        return { switching: true as const };
      },
      'profiles:test': async ({ id }) => {
        if (id && id !== profile.id) {
          // Another profile, before switching to it: its own token source, nothing else of it opened.
          const other = profileById(id);
          if (other.embedded) throw new CoreError('INVALID_INPUT', 'The embedded sandbox is tested by opening it.');
          const otherTokens = createClientCredentialsTokenSource(
            tokenOptionsOf(other, other.tokenUrl!, storedCredential(other, vault, opts.clientSecret)),
          );
          return testConnection(otherTokens, other.consentApiBaseUrl!, other.tokenUrl!);
        }
        const result = await testConnection(tokens, baseUrl, tokenUrl);
        online = result.ok;
        return result;
      },
      'operator:get': async () => operators.get(),
      'operator:set': async ({ displayName }) => operators.setDisplayName(displayName),
      'data:consents': async (input) => dataQuery.consents(input),
      'data:groups': async ({ by, search }) => dataQuery.groups(by, search),
      'data:meta': async ({ consentId }) => dataQuery.meta(consentId),
      'data:records': async (input) => dataQuery.records(input),
      'data:export': async (input) =>
        startExport(
          'export-data',
          `Export ${input.kind} of consent ${input.consentId} to ${input.format.toUpperCase()}`,
          `${safeFileName(input.kind, input.consentId.slice(0, 12), new Date().toISOString().slice(0, 19))}.${input.format}`,
          (path, ctx) => writeDataExport(dataQuery, input, input.format, path, ctx),
          {
            target: input.consentId,
            describe: (r) =>
              `${r.rows ?? 0} ${input.kind} records exported as ${input.format.toUpperCase()} (${r.bytes ?? 0} bytes, sha256 ${r.sha256 ?? '?'}); filter ${JSON.stringify(input.filter ?? {})}`,
          },
        ),
      'data:sync': async (input) => {
        if (syncing) throw new CoreError('BUSY', 'A sync is already running: the data sync can start when it ends.');
        if (cacheDamage) throw new CoreError('CACHE', (cacheDamage as CacheError).message);
        const ids = 'consentIds' in input ? [...new Set(input.consentIds)] : undefined;
        const title = !ids
          ? 'Sync data of all active consents'
          : ids.length === 1
            ? `Sync data of consent ${ids[0]}`
            : `Sync data of ${ids.length} consents`;
        const job = jobs.start({
          kind: 'data-sync',
          title,
          run: async (ctx) => {
            ctx.signal.addEventListener('abort', () => controller?.abort(new Error('cancelled by the operator')));
            if (syncing) throw new Error('A sync is already running.');
            const run = runSync(false, true, ids, (p) =>
              ctx.progress({ done: p.done, total: p.total, message: p.message ? `${p.phase}: ${p.message}` : p.phase }),
            );
            syncing = run.finally(() => {
              syncing = undefined;
            });
            const summary = await syncing;
            const records = dataRecordTotal(summary);
            ctx.progress({
              counts: summary.data ?? {},
              done: records,
              total: records,
              message: summary.failures.length
                ? `Some kinds failed: ${summary.failures.map((f) => `${f.phase}: ${f.reason}`).join('; ')}`
                : `${records.toLocaleString('en-AU')} records stored`,
            });
            events.emit('cache:changed', { entity: 'data', count: records });
            return { rows: records };
          },
        });
        return { jobId: job.jobId };
      },
      'products:list': async ({ filter, offset, limit }) => dataQuery.products(filter, offset, limit),
      'products:get': async ({ recordId }) => {
        const product = dataQuery.product(recordId);
        if (!product) throw new CoreError('NOT_FOUND', `The cache holds no product ${recordId}: sync with Data API records first.`);
        return product;
      },
      'products:versions': async ({ recordId, hashes }) => dataQuery.productVersions(recordId, hashes),
      'products:export': async ({ filter, format }) =>
        startExport(
          'export-products',
          `Export products to ${format.toUpperCase()}`,
          `${safeFileName('products', new Date().toISOString().slice(0, 19))}.${format}`,
          (path, ctx) => writeProductsExport(dataQuery, filter, format, path, ctx),
          {
            target: null,
            describe: (r) =>
              `${r.rows ?? 0} products exported as ${format.toUpperCase()} (sha256 ${r.sha256 ?? '?'}); filter ${JSON.stringify(filter)}`,
          },
        ),
      'sync:start': async (input) => {
        if (syncing) throw new CoreError('BUSY', 'A sync is already running.');
        if (cacheDamage) throw new CoreError('CACHE', cacheDamage.message);
        // Without `data`, a sync fetches Data API records as Settings say (on by default for the
        // embedded sandbox); a sync of chosen consents is always a data sync.
        const data = input.data ?? (input.consentIds ? false : settings.get().syncData);
        syncing = runSync(Boolean(input.full), data, input.consentIds).finally(() => {
          syncing = undefined;
        });
        return syncing;
      },
    },
  });

  // Scheduled sync, every N minutes as Settings say (the host's option until the user chose), with or
  // without Data API records; skipped while one is running; failures show in the status, like any sync.
  let schedule: ReturnType<typeof setInterval> | undefined;
  const reschedule = () => {
    if (schedule) clearInterval(schedule);
    const chosen = settings.chosen();
    const minutes = chosen.syncEveryMinutes ?? opts.syncEveryMinutes ?? 0;
    schedule = minutes
      ? setInterval(() => {
          if (!syncing) void router.handle('sync:start', {}, true);
        }, minutes * 60_000)
      : undefined;
    schedule?.unref();
  };
  reschedule();

  return {
    router,
    actions,
    audit,
    events,
    profile,
    sandboxUrl: sandbox?.url,
    sync: async (o) => {
      // `data` left out: as Settings say (on by default for the embedded sandbox).
      const r = await router.handle(
        'sync:start',
        { ...(o?.full ? { full: true } : {}), ...(o?.data !== undefined ? { data: o.data } : {}) },
        true,
      );
      if (!r.ok) throw new CoreError(r.error.code, r.error.message);
      return r.value as SyncSummary;
    },
    cache: {
      consents,
      query,
      events: eventsRepo,
      data: dataRepo,
      releaseMemory: () => void db.pragma('shrink_memory'),
      indexesReady: () => Promise.all([query.ready(), eventQuery.ready()]).then(() => undefined),
    },
    jobs,
    recordExport: (written, input) => {
      audit.append({
        operator: operatorName(),
        action: 'export-consents',
        target: null,
        reason: null,
        result: describeConsentExport(written, input),
      });
    },
    retentionLog: (consentId) => retentionLog(db, consentId),
    async close() {
      if (schedule) clearInterval(schedule);
      await jobs.close();
      controller?.abort(new Error('closing'));
      await syncing?.catch(() => undefined);
      await syncThread?.close();
      integrity?.stop();
      audit.flushAnchor();
      query.close();
      eventQuery.close();
      db.close();
      openMark.release();
      await sandbox?.close();
    },
  };
}
