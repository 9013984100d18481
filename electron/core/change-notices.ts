import type { CacheChanged } from '../../shared/ipc/contract.js';
import type { EventBus } from '../ipc/event-bus.js';
import type { Storage } from './storage.js';

/**
 * Change notices start at the store (issue 37): every write through these ports says, once it has
 * been stored, which entities it changed — an action's consents, the events it re-read and its
 * audit entry; an audit entry appended on its own (a failed attempt, an export) — so every console,
 * on this server and (relayed, postgres/live.ts) on the others, refreshes what it shows of them.
 * Handlers no longer announce by hand (a revoke said "consents" only, so another console's Events
 * screen and the overview's event counts stayed stale, and a failed attempt said nothing). The
 * sync's writes are announced by the sync as it stores each page (sync/service.ts).
 */
export function announcingStorage(stores: Storage, bus: EventBus): Storage {
  const announce = (entity: CacheChanged['entity'], count: number) => {
    if (count > 0) bus.emit('cache:changed', { entity, count });
  };
  const actions: Storage['actions'] = {
    record: async (change) => {
      const recorded = await stores.actions.record(change);
      announce('consents', change.consents?.length ?? 0);
      announce('events', change.events?.length ?? 0);
      announce('audit', 1);
      return recorded;
    },
    exclusive: (key, fn) => stores.actions.exclusive(key, fn),
  };
  // The audit store has many reads and one write of its own: every call passes through, `append` announced.
  const audit = new Proxy(stores.audit, {
    get(target, prop, receiver) {
      if (prop === 'append')
        return async (entry: Parameters<Storage['audit']['append']>[0]) => {
          const appended = await target.append(entry);
          announce('audit', 1);
          return appended;
        };
      const value: unknown = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  /** A store's write that, when it wrote (`wrote` of its result), changed `entity` and appended to the audit log. */
  const audited =
    <A extends unknown[], R>(entity: CacheChanged['entity'], write: (...args: A) => Promise<R>, wrote: (r: R) => boolean) =>
    async (...args: A): Promise<R> => {
      const r = await write(...args);
      if (wrote(r)) {
        announce(entity, 1);
        announce('audit', 1);
      }
      return r;
    };
  // A complaint recorded or changed: the register and the audit log (nothing when nothing was written).
  const complaints: Storage['complaints'] = {
    ...stores.complaints,
    record: audited('complaints', stores.complaints.record.bind(stores.complaints), () => true),
    update: audited('complaints', stores.complaints.update.bind(stores.complaints), (r) => r.outcome === 'updated'),
  };
  // Alerts: each write announces the alerts (the bell, the list); the audited ones the audit log too.
  const AUDITED = new Set(['addRule', 'removeRule', 'silence', 'open', 'resolve', 'acknowledge']);
  const WRITES = new Set([...AUDITED, 'touch', 'notified']);
  const alerts = new Proxy(stores.alerts, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      const fn = (value as (...args: unknown[]) => Promise<unknown>).bind(target);
      if (typeof prop !== 'string' || !WRITES.has(prop)) return fn;
      return async (...args: unknown[]) => {
        const done = await fn(...args);
        if (done) {
          announce('alerts', 1);
          if (AUDITED.has(prop)) announce('audit', 1);
        }
        return done;
      };
    },
  });
  // A rule 9.4 report made, answered, counted again or signed off: the reports and the audit log.
  const rule94: Storage['rule94'] = {
    ...stores.rule94,
    make: audited('rule94', stores.rule94.make.bind(stores.rule94), (made) => made !== null),
    change: audited('rule94', stores.rule94.change.bind(stores.rule94), (r) => r.outcome === 'changed'),
    signOff: audited('rule94', stores.rule94.signOff.bind(stores.rule94), (r) => r.outcome === 'changed'),
  };
  // The monthly compliance pack: its schedule changed or a month's pack made (audited), its e-mail recorded.
  const monthly: Storage['monthly'] = {
    ...stores.monthly,
    setSchedule: audited('monthly', stores.monthly.setSchedule.bind(stores.monthly), () => true),
    make: audited('monthly', stores.monthly.make.bind(stores.monthly), (made) => made !== null),
    sent: async (period, detail) => {
      await stores.monthly.sent(period, detail);
      announce('monthly', 1);
    },
  };
  // Retention: the data of the consents it treated, and an audit entry for each.
  const data: Storage['data'] = {
    ...stores.data,
    applyRetention: async (operator) => {
      const treated = await stores.data.applyRetention(operator);
      announce('data', treated.length);
      announce('audit', treated.length);
      return treated;
    },
  };
  return { ...stores, actions, audit, complaints, alerts, rule94, monthly, data };
}
