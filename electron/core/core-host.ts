import { EventBus } from '../ipc/event-bus.js';
import type { Router } from '../ipc/router.js';
import { resetCache, startCore, type Core, type CoreOptions } from './console-core.js';

/**
 * What the Electron shell and the browser host serve: one core at a time, behind a router and an
 * event bus that stay the same while the core underneath changes — switching profile (the console
 * reopens on the other profile's cache) or resetting the cache (moved aside, a new one started).
 * Requests that arrive during a switch wait for it; the renderer is told with `profile:switched`.
 */
export interface CoreHost {
  router: Router;
  events: EventBus;
  /** The core now serving (the command line and tests reach into it). */
  core(): Core;
  close(): Promise<void>;
}

export async function startCoreHost(opts: CoreOptions): Promise<CoreHost> {
  const events = new EventBus();
  let current: Core;
  let detach: (() => void) | undefined;
  let switching: Promise<void> | undefined;

  let sandboxPort: number | undefined;
  const attach = (core: Core) => {
    detach?.();
    detach = core.events.subscribe((event, payload) => events.emit(event, payload));
    current = core;
    if (core.sandboxUrl) sandboxPort = Number(new URL(core.sandboxUrl).port);
  };
  const start = (profileId: string | undefined) =>
    startCore({
      ...opts,
      ...(profileId ? { profileId } : {}),
      ...(sandboxPort ? { sandboxPort } : {}),
      reopen: (change) => void reopen(change),
    });

  /** Closes the core and starts the next one; if that fails, the previous profile comes back. */
  function reopen(change: { profileId?: string; resetCache?: boolean }): Promise<void> {
    const run = async () => {
      const previous = current.profile.id;
      const target = change.profileId ?? previous;
      await current.close();
      try {
        if (change.resetCache) resetCache(opts.dataDir, target);
        attach(await start(target));
        opts.log.info(`reopened on profile ${target}${change.resetCache ? ' with a new cache' : ''}`);
        events.emit('profile:switched', { profileId: target, ok: true, message: null });
      } catch (error) {
        opts.log.error(`could not open profile ${target}`, error);
        attach(await start(previous));
        events.emit('profile:switched', {
          profileId: previous,
          ok: false,
          message: `The console could not open profile "${target}": ${(error as Error).message} It is back on "${previous}".`,
        });
      }
    };
    switching = (switching ?? Promise.resolve()).then(run, run);
    return switching;
  }

  attach(await start(opts.profileId));
  return {
    router: {
      async handle(channel, input, trusted, request) {
        await switching;
        return current.router.handle(channel, input, trusted, request);
      },
    },
    events,
    core: () => current,
    async close() {
      await switching?.catch(() => undefined);
      detach?.();
      await current.close();
    },
  };
}
