import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { SyncSummary } from '../../shared/ipc/contract.js';
import { EventBus } from '../ipc/event-bus.js';
import { announcingStorage } from './change-notices.js';
import { currentCaller, outsideRequest } from '../ipc/request-context.js';
import { createRouter } from '../ipc/router.js';
import { CoreError } from './errors.js';
import { ConsentClient } from './api/consent-client.js';
import { appHandlers } from './app/handlers.js';
import { auditHandlers } from './audit/handlers.js';
import { sqliteStoreOpener } from './cache/profile-cache.js';
import { loadProfiles, pickProfile } from './config/profiles.js';
import { openConnection } from './connection.js';
import { ConsentActions } from './consents/actions.js';
import { consentHandlers, describeConsentExport } from './consents/handlers.js';
import type { CoreContext, Reachability } from './context.js';
import { dataHandlers } from './data/handlers.js';
import { restrictToOwner } from './data-dir.js';
import { eventHandlers } from './events/handlers.js';
import { createExporter } from './exports/exporter.js';
import { folderSink } from './exports/files.js';
import { jobHandlers, registerInterruptedBulkJobs } from './jobs/handlers.js';
import { JobRegistry } from './jobs/jobs.js';
import { describeOperator, OperatorStore, personAsOperator } from './operator.js';
import { userHandlers } from './people/handlers.js';
import { profileHandlers } from './profiles/handlers.js';
import { reportHandlers } from './reports/handlers.js';
import { rule94Handlers } from './reports/rule94/handlers.js';
import { Rule94Service } from './reports/rule94/service.js';
import { monthlyPackHandlers } from './reports/monthly/handlers.js';
import { MonthlyPackService } from './reports/monthly/service.js';
import { complaintHandlers } from './complaints/handlers.js';
import { alertHandlers } from './alerts/handlers.js';
import { AlertService } from './alerts/service.js';
import { createDeliverer, readDelivery, writeDelivery } from './alerts/delivery.js';
import { createKeyFileCipher } from './secrets/cipher.js';
import { SecretVault } from './secrets/vault.js';
import { SettingsStore } from './settings.js';
import { syncHandlers } from './sync/handlers.js';
import { SyncService } from './sync/service.js';

export { cacheFileOf, checkCache, resetCache } from './cache/profile-cache.js';
export { errorCodeFor } from './sync/service.js';
export type { Core, CoreOptions } from './core-api.js';
import type { Core, CoreOptions } from './core-api.js';

/** Where the embedded sandbox's simulated data holder sends the consumer back (never visited: see sandbox:approve). */
const EMBEDDED_REDIRECT_URI = 'https://recipient.sandbox.invalid/consent-callback';

/**
 * The composition root: opens the profile's connection and its store (the one place that knows the
 * store is SQLite), builds the domains' services and joins their handlers into the router.
 */
export async function startCore(opts: CoreOptions): Promise<Core> {
  const profile = pickProfile(loadProfiles(opts.dataDir), opts.profileId);
  const vault = new SecretVault(opts.dataDir, opts.cipher ?? createKeyFileCipher(opts.dataDir));
  const profileDir = join(opts.dataDir, 'profiles', profile.id);
  mkdirSync(profileDir, { recursive: true, mode: 0o700 });
  restrictToOwner(opts.dataDir); // owner-only, whatever the umask or an earlier version left (see data-dir.ts)
  const connection = await openConnection({ ...opts, profile, profileDir, vault });
  const storeDamage = { problem: null as string | null };
  // The store opened for the profile: its SQLite cache, or a team server's PostgreSQL store.
  let opened: Awaited<ReturnType<typeof sqliteStoreOpener>>;
  try {
    const onDamage = (problem: { message: string }) => void (storeDamage.problem = problem.message);
    opened = await (opts.store ?? sqliteStoreOpener)({
      dataDir: opts.dataDir,
      profile,
      vault,
      log: opts.log,
      onDamage,
      ...(opts.readIndexes === false ? { readIndexes: false } : {}),
    });
  } catch (error) {
    await connection.sandbox?.close();
    throw error;
  }
  const bus = new EventBus();
  // Every write through the stores announces what it changed (change-notices.ts).
  const stores = announcingStorage(opened.storage, bus);
  // A team server's database going away and coming back: every console's status bar says so at once,
  // and the schedule waits for it (the sync that stopped resumes at the first tick after).
  let databaseAway = false;
  const unwatchTeam = opened.team?.watch?.((database) => {
    databaseAway = database.state === 'unreachable';
    bus.emit('team:database', database);
  });
  const operators = new OperatorStore(opts.dataDir);
  // Who acts: the signed-in person of the request (a team server), else this machine's operator.
  const acting = () => personAsOperator(currentCaller()) ?? operators.get();
  const operator = () => describeOperator(acting());
  const jobs = new JobRegistry((job) => bus.emit('jobs:progress', job));
  const files = opts.files ?? folderSink(join(opts.dataDir, 'exports'));
  const ctx: CoreContext = {
    stores,
    clock: opts.clock ?? (() => new Date()),
    bus,
    jobs,
    exports: createExporter({ files, jobs, audit: stores.audit, operator }),
    operator,
    log: opts.log,
  };
  const intermediary: Reachability = { online: false };
  const settings = new SettingsStore(opts.dataDir, profile.embedded ? { syncData: true } : {});
  const client = new ConsentClient({ baseUrl: connection.baseUrl, tokens: connection.tokens });
  const actions = new ConsentActions({
    client,
    store: stores.actions,
    bulk: stores.bulk,
    audit: stores.audit,
    operator: acting,
  });
  const engine = opened.engine({
    tokens: connection.tokenOptions,
    consentApiBaseUrl: connection.baseUrl,
    dataApiBaseUrl: connection.dataApiBaseUrl,
  });
  const syncService = new SyncService({
    ...ctx,
    engine,
    intermediary,
    storeDamage,
    storeFailure: (e) => opened.storeFailure(e),
    // Every sync that ends (well or not, its summary stored) has the alert rules checked: in a
    // console, once the read indexes match the synced cache. The checks and the reports they make
    // count from them; run beside the builds and the console's first reads, their reading added up
    // (issue 40: the host's peak after a first sync).
    ended: () => void indexesBuilt().then(() => !closing && evaluateAlerts()),
  });
  const about = { appVersion: opts.appVersion, profile: { id: profile.id, name: profile.name, environment: profile.environment } };
  const jobsContext = { ...ctx, actions, intermediary, approvalOver: () => settings.get().bulkApprovalOver };
  // Where alerts go (issue 38): the addresses in the data directory, the secrets in the vault.
  const deliverer = createDeliverer({
    config: () => readDelivery(opts.dataDir),
    secret: (name) => vault.get(name),
    audit: (entry) => stores.audit.append(entry),
  });
  // When the last sync that stored the consents and events whole finished: the scheduled reports count
  // a period only from a cache synced after it ended.
  // A console's host keeps the read indexes current from the start: the events' follows a sync as
  // it writes, so the first reads after it wait for no build (issue 40). The command line builds none.
  if (opts.host !== 'cli' && opts.readIndexes !== false) opened.sqlite?.keepIndexesCurrent();
  let closing = false;
  const indexesBuilt = (): Promise<unknown> =>
    opts.host !== 'cli' && opts.readIndexes !== false && opened.sqlite
      ? opened.sqlite.indexesReady().catch(() => undefined)
      : Promise.resolve();
  const wholeSyncAt = async () => {
    const last = await syncService.lastSummary();
    return last && !last.failures.some((f) => f.phase === 'consents' || f.phase === 'events') ? last.finishedAt : null;
  };
  // The rule 9.4 reports (issue 38): the last ended half-year's made at start (the catch-up after a
  // restart) and with every alert check, once across a team; the reminder rule fires until signed off.
  const rule94 = new Rule94Service({
    stores,
    clock: ctx.clock,
    syncedAt: wholeSyncAt,
  });
  // Alert rules at work (issue 38): after every sync that ends, and every five minutes.
  const alerts = new AlertService({
    store: stores.alerts,
    clock: ctx.clock,
    log: opts.log,
    signals: {
      events: async (types, from, holder) =>
        holder === undefined
          ? (await stores.events.count({ types: [...types], from })).total
          : stores.alerts.holderEvents(holder, types, from),
      expiring: async (from, to) => (await stores.consents.count({ statuses: ['ACTIVE'], sharingEnd: { from, to } })).total,
      lastSync: () => syncService.lastSummary(),
      audit: async () => {
        const v = await stores.audit.verify();
        return v.ok ? { ok: true } : { ok: false, problem: v.problem, brokenAt: v.brokenAt };
      },
      reportAwaiting: () => rule94.awaiting(),
    },
    // The notification centre reads the alerts themselves (announced by the store); e-mail and the webhook here.
    deliver: (message) => deliverer.deliver(message),
  });
  // The monthly compliance pack (issue 38), when scheduled: the last ended month's made at start, after
  // every sync and every five minutes, once across a team; e-mailed to the alert e-mail's recipients.
  const monthly = new MonthlyPackService({
    store: stores.monthly,
    reports: stores.reports,
    clock: ctx.clock,
    log: opts.log,
    syncedAt: wholeSyncAt,
    mail: (mail) => deliverer.mailReport(mail),
    about: { profile: profile.name, appVersion: opts.appVersion },
  });
  const makeMonthlyPack = () =>
    outsideRequest(
      () => void monthly.catchUp().catch((e: Error) => opts.log.error(`monthly compliance pack: making it failed: ${e.message}`)),
    );
  const evaluateAlerts = () => {
    outsideRequest(() => void alerts.evaluateAll().catch((e: Error) => opts.log.error(`alerts: evaluation failed: ${e.message}`)));
    makeMonthlyPack();
  };
  let packTimer: ReturnType<typeof setInterval> | undefined;
  if (opts.host !== 'cli') {
    outsideRequest(() => alerts.start(5 * 60_000));
    // The catch-ups at start, once the read indexes are built (as after a sync): not beside the
    // builds and a console's first reads.
    void indexesBuilt().then(() => {
      if (closing) return;
      outsideRequest(() => void rule94.catchUp().catch((e: Error) => opts.log.error(`rule 9.4 report: making it failed: ${e.message}`)));
      makeMonthlyPack();
    });
    packTimer = outsideRequest(() => setInterval(makeMonthlyPack, 5 * 60_000));
    packTimer.unref?.();
  }
  await registerInterruptedBulkJobs(jobsContext);

  // Scheduled sync, every N minutes as Settings say (the host's option until the user chose), with or
  // without Data API records; skipped while one is running or a team database is away; failures show
  // in the status, like any sync.
  let schedule: ReturnType<typeof setInterval> | undefined;
  const reschedule = () => {
    if (schedule) clearInterval(schedule);
    const minutes = settings.chosen().syncEveryMinutes ?? opts.syncEveryMinutes ?? 0;
    // Set up outside the request that changed the schedule: a scheduled sync is nobody's request.
    schedule = minutes
      ? outsideRequest(() =>
          setInterval(() => !syncService.syncing && !databaseAway && void router.handle('sync:start', {}, true), minutes * 60_000),
        )
      : undefined;
    schedule?.unref();
  };

  const router = createRouter({
    onInternalError: (channel, error) => opts.log.error(`IPC ${channel} failed`, error),
    mapError: (error) => opened.mapError(error),
    handlers: {
      ...appHandlers({
        ...ctx,
        sync: syncService,
        intermediary,
        sandboxUrl: connection.sandbox?.url,
        team: opened.team,
        connectTeam: opts.connectTeam,
        dataDir: opts.dataDir,
        about: {
          appVersion: opts.appVersion,
          host: opts.host,
          profile: { ...about.profile, embedded: profile.embedded },
          keyStorage: { kind: vault.cipher.kind, description: vault.cipher.description },
        },
      }),
      ...consentHandlers({ ...ctx, actions, intermediary, about, redirectUri: profile.redirectUri ?? EMBEDDED_REDIRECT_URI }),
      ...eventHandlers(ctx),
      ...dataHandlers(ctx),
      ...userHandlers({ ...(opts.people ? { people: opts.people } : {}), operator }),
      ...auditHandlers(ctx),
      ...reportHandlers({ ...ctx, about: { profile: profile.name, appVersion: opts.appVersion } }),
      ...complaintHandlers({ ...ctx, complaints: stores.complaints }),
      ...monthlyPackHandlers({ ...ctx, service: monthly, makeDue: makeMonthlyPack }),
      ...rule94Handlers({ ...ctx, rule94: stores.rule94, service: rule94, about: { profile: profile.name, appVersion: opts.appVersion } }),
      ...alertHandlers({
        ...ctx,
        alerts: stores.alerts,
        service: alerts,
        delivery: {
          read: () => readDelivery(opts.dataDir),
          write: (config) => writeDelivery(opts.dataDir, config),
          secrets: vault,
          deliverer,
          audit: (entry) => stores.audit.append(entry),
        },
      }),
      ...jobHandlers(jobsContext),
      ...syncHandlers({ ...ctx, sync: syncService, syncDataByDefault: () => settings.get().syncData }),
      ...profileHandlers({
        ...ctx,
        dataDir: opts.dataDir,
        vault,
        settings,
        operators,
        current: { profile, tokens: connection.tokens, baseUrl: connection.baseUrl, tokenUrl: connection.tokenUrl },
        intermediary,
        clientSecret: opts.clientSecret,
        reopen: opts.reopen,
        team: opened.team !== undefined,
        onScheduleChange: reschedule,
        ...(opts.people ? { personal: opts.people } : {}),
      }),
    },
  });
  reschedule();

  return {
    router,
    actions,
    stores,
    events: bus,
    profile,
    sandboxUrl: connection.sandbox?.url,
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
    get cache() {
      const sqlite = opened.sqlite;
      if (!sqlite) throw new Error('This core keeps no SQLite cache (a team server stores in PostgreSQL).');
      return { ...sqlite.sqlite, releaseMemory: sqlite.releaseMemory, indexesReady: sqlite.indexesReady };
    },
    jobs,
    recordExport: async (written, input) => {
      await stores.audit.append({
        operator: operator(),
        action: 'export-consents',
        target: null,
        reason: null,
        result: describeConsentExport(written, input),
      });
    },
    async close() {
      closing = true;
      if (schedule) clearInterval(schedule);
      alerts.stop();
      if (packTimer) clearInterval(packTimer);
      monthly.stop();
      unwatchTeam?.();
      await jobs.close();
      await syncService.stop();
      await engine.close();
      await opened.close();
      await connection.sandbox?.close();
    },
  };
}
