import { Command, InvalidArgumentError } from 'commander';
import { exitTwoOnUsageError, USAGE_EXIT } from '../cli/usage.js';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resetCache } from '../core/console-core.js';
import { startCoreHost } from '../core/core-host.js';
import { dataDirFlag, ensureDataDir, resolveDataDir } from '../core/data-dir.js';
import { createFileLogger, type Logger } from '../core/log.js';
import type { StoreOpener } from '../core/store-opener.js';
import type { EventBus } from '../ipc/event-bus.js';
import type { Router } from '../ipc/router.js';
import type { People } from '../core/people/people.js';
import type { Storage } from '../core/storage.js';
import { Downloads } from './downloads.js';
import { startBrowserHost } from './server.js';
import { isLoopback, listenProblem, loadTls, type ListenOptions } from './listen.js';
import { signInLimits } from './rate-limit.js';
import { dataRecordTotal } from '../../shared/ipc/contract.js';

/**
 * Starts the console in browser-host mode: core (with the embedded sandbox for the default
 * profile), an initial sync, and the loopback server. Used by `npm run serve` and by
 * `npm start` when there is no Electron binary.
 */
function integer(min: number) {
  return (value: string) => {
    if (!/^\d+$/.test(value) || Number(value) < min) throw new InvalidArgumentError(`expected an integer ≥ ${min}`);
    return Number(value);
  };
}

function isoTime(value: string): string {
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/.test(value) || Number.isNaN(Date.parse(value)))
    throw new InvalidArgumentError('expected an ISO 8601 date-time with a zone, e.g. 2026-11-01T00:00:00Z');
  return new Date(value).toISOString();
}

/** With no page opened, the solo host's start sync waits this long; a page's first read answered, this much. */
export const START_SYNC_AFTER_MS = 2_000;
export const START_SYNC_AFTER_FIRST_READ_MS = 1_000;

export function hostCommand(name: string): Command {
  return exitTwoOnUsageError(new Command())
    .name(name)
    .description('Serve CDR Console to a browser (127.0.0.1 by default; beyond it with TLS or behind a proxy), one-run token.')
    .option('--port <n>', 'port (0 picks a free one)', integer(0), 0)
    .option('--host <address>', 'address to listen on (default 127.0.0.1); beyond loopback it needs --tls-cert/--tls-key or --trust-proxy')
    .option('--tls-cert <file>', 'serve HTTPS with this PEM certificate (chain); with --tls-key')
    .option('--tls-key <file>', 'the PEM private key of --tls-cert')
    .option('--trust-proxy', 'plain HTTP reached only through a reverse proxy that terminates TLS (client address from X-Forwarded-For)')
    .option(
      '--public-url <url>',
      'the address people open, e.g. https://console.example.com (required with --trust-proxy or --host 0.0.0.0)',
    )
    .option('--data-dir <dir>', 'data directory (default: CDR_CONSOLE_DATA_DIR, then the platform app-data folder)')
    .option('--profile <id>', 'connection profile (default: the one profiles.json names)')
    .option('--sandbox-seed <s>', 'seed of the embedded sandbox', integer(0))
    .option('--sandbox-consents <n>', 'number of consents in the embedded sandbox', integer(0))
    .option('--sandbox-clock <iso>', "pin the embedded sandbox's clock at this time (default: it follows real time)", isoTime)
    .option('--no-sync', 'do not sync at start')
    .option('--sync-every <minutes>', 'sync on a schedule, every N minutes (0: never)', integer(0), 15)
    .option('--reset-cache', "move the profile's cache aside (kept, renamed) and start from an empty one");
}

export interface HostCliOptions {
  port: number;
  dataDir?: string;
  profile?: string;
  sandboxSeed?: number;
  sandboxConsents?: number;
  sandboxClock?: string;
  sync: boolean;
  syncEvery: number;
  resetCache?: boolean;
  host?: string;
  tlsCert?: string;
  tlsKey?: string;
  trustProxy?: boolean;
  publicUrl?: string;
}

/**
 * The listen options of the command line, or why they cannot be served (one line naming the
 * options): TLS files read and checked, plain HTTP beyond loopback refused (listen.ts).
 */
export function hostListen(opts: HostCliOptions): { listen: ListenOptions } | { problem: string } {
  const listen: ListenOptions = {
    ...(opts.host !== undefined ? { host: opts.host } : {}),
    ...(opts.trustProxy ? { trustProxy: true } : {}),
    ...(opts.publicUrl !== undefined ? { publicUrl: opts.publicUrl } : {}),
  };
  if (opts.tlsCert !== undefined || opts.tlsKey !== undefined) {
    if (opts.trustProxy) return { problem: '--trust-proxy and --tls-cert/--tls-key exclude each other: TLS ends at the proxy, or here' };
    // The files are read after the combination is known to be sound, so a plain HTTP refusal comes first.
    const problem = listenProblem({ ...listen, tls: { cert: '', key: '' } });
    if (problem) return { problem };
    try {
      listen.tls = loadTls(opts.tlsCert, opts.tlsKey);
    } catch (error) {
      return { problem: (error as Error).message };
    }
  }
  const problem = listenProblem(listen);
  return problem ? { problem } : { listen };
}

/** What a team server adds to the browser host: its store, its name in the banner, what to stop after. */
export interface ServeAs {
  label: string;
  store: (
    dataDir: string,
    log: Logger,
  ) => Promise<{
    store: StoreOpener;
    /** People sign in (the team server): no one-run token, the sign-in page instead. */
    people?: People;
    started(url: string, events: EventBus, stores: Storage): Promise<void>;
    close(): Promise<void>;
  }>;
}

export async function runBrowserHost(opts: HostCliOptions, repoRoot: string, reason?: string, serveAs?: ServeAs): Promise<void> {
  // Before anything is opened or created: a refused address is a usage error (one line, exit 2).
  const listening = hostListen(opts);
  if ('problem' in listening) {
    process.stderr.write(`error: ${listening.problem} (--help for usage)\n`);
    process.exit(USAGE_EXIT);
  }
  const { listen } = listening;
  const dataDir = ensureDataDir(resolveDataDir(opts.dataDir ?? dataDirFlag(process.argv)));
  const staticDir = join(repoRoot, 'dist', 'renderer');
  if (!existsSync(join(staticDir, 'index.html'))) {
    console.error(`The console UI is not built (${staticDir}): run npm run build:renderer first.`);
    process.exit(1);
  }
  const log = createFileLogger(dataDir);
  if (opts.resetCache) {
    const moved = resetCache(dataDir, opts.profile);
    console.log(moved ? `The cache was moved aside to ${moved}; it will be filled again by the sync.` : 'There was no cache to reset.');
  }
  const team = await serveAs?.store(dataDir, log).catch((error: Error) => {
    console.error(`CDR Console could not start: ${error.message}`);
    process.exit(1);
  });
  const downloads = new Downloads(join(dataDir, 'downloads'));
  const version = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
  const cores = await startCoreHost({
    dataDir,
    host: serveAs ? 'team' : 'browser',
    appVersion: version,
    log,
    ...(opts.profile ? { profileId: opts.profile } : {}),
    sandbox: {
      ...(opts.sandboxSeed !== undefined ? { seed: opts.sandboxSeed } : {}),
      ...(opts.sandboxConsents !== undefined ? { consents: opts.sandboxConsents } : {}),
      ...(opts.sandboxClock ? { clockOrigin: opts.sandboxClock } : {}),
    },
    ...(process.env.CDR_CONSOLE_CLIENT_SECRET ? { clientSecret: process.env.CDR_CONSOLE_CLIENT_SECRET } : {}),
    ...(opts.syncEvery > 0 ? { syncEveryMinutes: opts.syncEvery } : {}),
    files: downloads.sink(),
    ...(team ? { store: team.store } : {}),
    ...(team?.people ? { people: team.people } : {}),
  }).catch((error: Error) => {
    console.error(`CDR Console could not start: ${error.message}`);
    process.exit(1);
  });
  // The solo host's start sync waits for the first page's first reads (issue 21): see below.
  let firstAnswer: (() => void) | undefined;
  const router: Router = {
    handle: (...args) =>
      cores.router.handle(...args).finally(() => {
        firstAnswer?.();
        firstAnswer = undefined;
      }),
  };
  const host = await startBrowserHost({
    router,
    events: cores.events,
    staticDir,
    port: opts.port,
    listen,
    downloads,
    log: (message) => log.info(`browser host: ${message}`),
    ...(team?.people ? { signIn: { service: team.people, limits: signInLimits() } } : {}),
  });
  const core = cores.core();

  // Before the address is printed (whoever reads it may stop the host at once) and the start's
  // sync: a Ctrl+C (or a service manager's SIGTERM) while it runs closes the cache too (else the
  // next start found it left open, and checked every page of it while the first screen loaded).
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    downloads.close();
    void Promise.all([host.close(), cores.close()])
      .then(() => team?.close())
      .then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);

  if (reason) console.log(`Using the browser host: ${reason}`);
  if (!isLoopback(listen.host ?? '127.0.0.1'))
    console.log(
      `Listening on ${listen.host}:${host.port} (${listen.tls ? 'HTTPS' : 'plain HTTP for the reverse proxy only: keep this port unreachable from anywhere else'})`,
    );
  else if (listen.trustProxy) console.log(`Listening on ${listen.host ?? '127.0.0.1'}:${host.port} for the reverse proxy`);
  console.log(`Data directory: ${dataDir}`);
  console.log(
    `Profile: ${core.profile.name} (${core.profile.environment})${core.sandboxUrl ? `, embedded sandbox at ${core.sandboxUrl}` : ''}`,
  );
  await team?.started(host.url, cores.events, core.stores);
  // With sign-in there is no token: people open the address and sign in.
  console.log(`CDR Console${serveAs ? ` ${serveAs.label}` : ''} at ${team?.people ? host.url : host.launchUrl}`);

  let synced = false;
  if (opts.sync) {
    // A page opened at once (npm start opens one) shows its first rows before the sync takes a core
    // from it: the sync starts a moment after main answered the page's first read, or after
    // START_SYNC_AFTER_MS with no page. A team server (many people, at any time) syncs at once.
    if (!serveAs)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, START_SYNC_AFTER_MS);
        firstAnswer = () => {
          clearTimeout(timer);
          setTimeout(resolve, START_SYNC_AFTER_FIRST_READ_MS);
        };
      });
    firstAnswer = undefined;
    if (stopping) return;
    const started = performance.now();
    await core.sync().then(
      (s) => {
        synced = true;
        console.log(
          `Synced ${s.consents.fetched} consents (${s.consents.new} new, ${s.consents.changed} changed)${s.data ? ` and ${dataRecordTotal(s)} Data API records` : ''} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
        );
      },
      // Stopped meanwhile: the sync was cancelled, not failed.
      (error: Error) => stopping || console.error(`Initial sync failed: ${error.message} (the console shows the cached data)`),
    );
  }
  // A team server that did not sync (another server syncs, or --no-sync) still serves actions: it
  // checks that it reaches the intermediary, so its consoles are not shown offline until a sync.
  if (serveAs && !synced && !stopping) await cores.router.handle('profiles:test', {}, true).catch(() => undefined);
}
