import type { Handlers } from '../ipc/router.js';
import type { EventBus } from '../ipc/event-bus.js';
import type { Exporter } from './exports/exporter.js';
import type { JobRegistry } from './jobs/jobs.js';
import type { Logger } from './log.js';
import type { Storage } from './storage.js';

/**
 * What a domain's handlers are given: the storage ports, the clock, the events bus the consoles
 * listen to, the jobs, the exporter, who is at the keyboard, the log. Nothing of the engine and
 * nothing of the other domains' internals; each domain takes the part it needs (Pick) plus its
 * own services.
 */
export interface CoreContext {
  stores: Storage;
  clock: () => Date;
  bus: EventBus;
  jobs: JobRegistry;
  exports: Exporter;
  /** The operator's name as the audit log records it. */
  operator: () => string;
  log: Logger;
}

/** Whether the intermediary answered last time: actions, syncs and connection tests keep it. */
export interface Reachability {
  online: boolean;
}

/** Some channels' handlers: what a domain's handlers.ts returns; the composition root joins them all. */
export type HandlersOf<C extends keyof Handlers> = Pick<Handlers, C>;
