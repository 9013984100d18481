import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { Consent, ConsentEvent, ConsentListFilterOf } from '../../shared/schemas/consent.js';
import { createConsentGenerator, STATUS_CODES, type ConsentGenerator, type StatusCode } from './consents.js';
import { EVENT_CODE, seededEvents, type EventType, type SeededEvent } from './events.js';
import { stableUuid } from './ids.js';

/**
 * The sandbox's world: the seeded consents and events, plus every change made through the API
 * (revocations, updates, new consents, extensions, live events, the clock), kept as an overlay so
 * the seeded base never has to be materialised. The overlay is what a state file persists.
 */
export interface ConsentOverride {
  status?: (typeof STATUS_CODES)[number];
  revoked?: string;
  sharingEndDate?: string;
  externalId?: string | null;
  postUsageAction?: string;
  directMarketingAllowed?: boolean;
  cdrArrangementId?: string;
  version?: number;
  lastNotificationSentAt?: string;
}

interface StateFile {
  format: 'cdr-sandbox-state/1';
  seed: number;
  consents: number;
  clockOffsetMs: number;
  /** Where a real-time sandbox's clock started (its seeded history ends there). */
  clockOrigin?: string;
  overrides: Record<string, ConsentOverride>;
  created: Consent[];
  events: ConsentEvent[];
}

export class StateFileError extends Error {}

export interface WorldOptions {
  seed: number;
  consents: number;
  clockOrigin?: string;
  /**
   * The clock follows real time: a new state file starts it now (the seeded history ends today)
   * and it runs on, so consents expire as days pass. Off, the clock stands at the origin until
   * advanced through the admin API (tests).
   */
  realTime?: boolean;
  eventsPerConsent?: number;
  stateFile?: string;
  /** Data API transactions at a chosen scale (benchmarks); default: 10–40 per account. */
  transactions?: TransactionPlan;
}

/**
 * How many transactions each account holds: `perAccount` on average, skewed (most accounts hold
 * fewer, a few up to three times as many); `largest`, when given, goes to one consent (the first
 * seeded consent with transactions), split over its accounts. A few in a thousand descriptions
 * carry a rare word (CHARGEBACK) for search benchmarks.
 */
export interface TransactionPlan {
  perAccount: number;
  largest?: number;
}

/** The v2 list filters, dates parsed to milliseconds. */
export type ConsentFilter = ConsentListFilterOf<number>;

export interface EventFilter {
  consentId?: string;
  eventTypes?: string[];
  oldest?: number;
  newest?: number;
}

const iso = (ms: number) => new Date(Math.floor(ms)).toISOString();

export class World {
  readonly gen: ConsentGenerator;
  private clockOffsetMs = 0;
  private overrides = new Map<number, ConsentOverride>();
  /** Consents created through the API, after the seeded ones (index = count + position). */
  private created: Consent[] = [];
  private liveEvents: ConsentEvent[] = [];
  private idIndex: Map<string, number> | undefined;
  private arrangementIndex: Map<string, number> | undefined;
  private consumerIndex: Map<string, number> | undefined;
  private eventIndex:
    { perm: Uint32Array; time: Float64Array; consent: Uint32Array; ordinal: Uint16Array; type: Uint8Array; now: number } | undefined;
  private readonly listeners = new Set<(event: ConsentEvent) => void>();
  private changeCount = 0;

  constructor(private readonly opts: WorldOptions) {
    const state = opts.stateFile && existsSync(opts.stateFile) ? readState(opts.stateFile) : undefined;
    const origin =
      state?.clockOrigin ??
      opts.clockOrigin ??
      (opts.realTime ? new Date(Math.floor(Date.now() / 60_000) * 60_000).toISOString() : undefined);
    this.gen = createConsentGenerator(opts.seed, opts.consents, origin);
    if (state) this.load(opts.stateFile!, state);
    else if (opts.realTime) this.save(); // keep where the clock started, so the seeded data is the same tomorrow
  }

  /**
   * Counts changes to the consents as served (updates, new consents, clock moves, resets): what a
   * cache of derived lists (the Data API's candidate consents) compares to know it is stale. The
   * real-time clock's drift is not counted; such a cache also checks expiry against now().
   */
  get changes(): number {
    return this.changeCount;
  }

  /**
   * When an ACTIVE consent stops being ACTIVE by the clock alone (its sharing end), in sandbox
   * milliseconds; Infinity when it never does (no end, or not ACTIVE).
   */
  expiresAt(index: number): number {
    if (index < this.gen.count && !this.overrides.has(index)) {
      const core = this.gen.core(index);
      return STATUS_CODES[core.status] === 'ACTIVE' ? core.sharingEnd : Infinity;
    }
    const c = this.consent(index);
    return c.status === 'ACTIVE' && c.sharingEndDate ? Date.parse(c.sharingEndDate) : Infinity;
  }

  // ---- clock

  /** The transactions' scale when a benchmark chose one. */
  get transactionPlan(): TransactionPlan | undefined {
    return this.opts.transactions;
  }

  now(): number {
    return (this.opts.realTime ? Date.now() : this.gen.origin) + this.clockOffsetMs;
  }

  /**
   * The time the data holders' records have reached: the clock, whole minutes on a real-time clock
   * (so a listing's pages agree within a minute, and its candidate lists are rebuilt at most once a
   * minute as accounts gain transactions).
   */
  dataNow(): number {
    const now = this.now();
    return this.opts.realTime ? Math.floor(now / 60_000) * 60_000 : now;
  }

  /** When dataNow() next moves on its own: the next minute on a real-time clock, else never. */
  dataNowUntil(): number {
    return this.opts.realTime ? this.dataNow() + 60_000 : Infinity;
  }

  advanceClock(ms: number): void {
    this.clockOffsetMs += ms;
    this.changeCount++;
    this.eventIndex = undefined;
    this.save();
  }

  // ---- identity

  get total(): number {
    return this.gen.count + this.created.length;
  }

  indexOf(consentId: string): number | undefined {
    if (!this.idIndex) {
      this.idIndex = new Map();
      for (let i = 0; i < this.gen.count; i++) this.idIndex.set(this.gen.consentId(i), i);
    }
    const base = this.idIndex.get(consentId);
    if (base !== undefined) return base;
    const k = this.created.findIndex((c) => c.consentId === consentId);
    return k < 0 ? undefined : this.gen.count + k;
  }

  private indexOfArrangement(id: string): number | undefined {
    if (!this.arrangementIndex) {
      this.arrangementIndex = new Map();
      for (let i = 0; i < this.gen.count; i++) this.arrangementIndex.set(stableUuid(this.gen.seed, 'arrangement', i), i);
    }
    return this.arrangementIndex.get(id);
  }

  private consumerNumber(key: string): number | undefined {
    if (!this.consumerIndex) {
      this.consumerIndex = new Map();
      for (let k = 0; k < this.gen.consumers; k++) {
        const c = this.gen.consumer(k);
        this.consumerIndex.set(c.consumerId, k);
        this.consumerIndex.set(c.email.toLowerCase(), k);
      }
    }
    return this.consumerIndex.get(key.toLowerCase()) ?? this.consumerIndex.get(key);
  }

  // ---- consents

  /** The consent as served now: seeded record, API changes, and expiry by the sandbox clock. */
  consent(index: number): Consent {
    if (index >= this.gen.count) return this.expire({ ...this.created[index - this.gen.count]! });
    const base = this.gen.at(index);
    const o = this.overrides.get(index);
    return this.expire(o ? { ...base, ...o } : base);
  }

  private expire(c: Consent): Consent {
    if (c.status === 'ACTIVE' && c.sharingEndDate && Date.parse(c.sharingEndDate) <= this.now()) return { ...c, status: 'EXPIRED' };
    return c;
  }

  /** What the Data API needs of a consent, cheaply: from the core for untouched seeded consents. */
  view(index: number): { status: string; holder: number; useCase: number; consumer: number; created: number } {
    if (index < this.gen.count && !this.overrides.has(index)) {
      const c = this.gen.core(index);
      return { status: this.statusOf(index), holder: c.holder, useCase: c.useCase, consumer: c.consumer, created: c.created };
    }
    const c = this.consent(index);
    return {
      status: c.status ?? '',
      holder: this.gen.holders.findIndex((h) => h.dataHolderBrandId === c.dataHolderBrandId),
      useCase: this.gen.useCases.findIndex((u) => u.id === c.useCase?.id),
      consumer: index < this.gen.count ? this.gen.core(index).consumer : -1,
      created: Date.parse(c.created ?? ''),
    };
  }

  /** Status only, from the cheap core: what filters use. */
  private statusOf(index: number): string {
    if (index >= this.gen.count) return this.consent(index).status ?? 'ACTIVE';
    const o = this.overrides.get(index);
    const core = this.gen.core(index);
    const status = o?.status ?? STATUS_CODES[core.status];
    const end = o?.sharingEndDate ? Date.parse(o.sharingEndDate) : core.sharingEnd;
    return status === 'ACTIVE' && end <= this.now() ? 'EXPIRED' : status;
  }

  /** Indexes matching the filter, in order (creation order: the seeded ones, then the new ones). */
  filterConsents(f: ConsentFilter): number[] | { count: number; at: (k: number) => number } {
    const keys = Object.keys(f).filter((k) => f[k as keyof ConsentFilter] !== undefined);
    if (keys.length === 0) return { count: this.total, at: (k) => k };
    // Identifier filters narrow to one consent without a scan.
    if (f.consentId !== undefined || f.cdrArrangementId !== undefined) {
      const i =
        f.consentId !== undefined
          ? this.indexOf(f.consentId)
          : (this.indexOfArrangement(f.cdrArrangementId!) ??
            this.created.findIndex((c) => c.cdrArrangementId === f.cdrArrangementId) + this.gen.count);
      if (
        i === undefined ||
        i < 0 ||
        i >= this.total ||
        (f.consentId && f.cdrArrangementId && this.consent(i).cdrArrangementId !== f.cdrArrangementId)
      )
        return [];
      return this.matches(i, f) ? [i] : [];
    }
    let consumer: number | undefined;
    if (f.consumerId !== undefined || f.consumerEmail !== undefined) {
      const byId = f.consumerId !== undefined ? this.consumerNumber(f.consumerId) : undefined;
      const byEmail = f.consumerEmail !== undefined ? this.consumerNumber(f.consumerEmail) : undefined;
      if (f.consumerId !== undefined && f.consumerEmail !== undefined && byId !== byEmail) consumer = -1;
      else consumer = byId ?? byEmail ?? -1;
    }
    const out: number[] = [];
    for (let i = 0; i < this.total; i++) if (this.matches(i, f, consumer)) out.push(i);
    return out;
  }

  private matches(i: number, f: ConsentFilter, consumer?: number): boolean {
    if (i >= this.gen.count || this.overrides.has(i)) return this.matchesFull(this.consent(i), f);
    const c = this.gen.core(i);
    const uc = this.gen.useCases[c.useCase]!;
    if (consumer !== undefined && c.consumer !== consumer) return false;
    if (f.status !== undefined && this.statusOf(i) !== f.status) return false;
    if (f.useCaseIds && !f.useCaseIds.includes(uc.id)) return false;
    if (f.dataHolderBrandId !== undefined && this.gen.holders[c.holder]!.dataHolderBrandId !== f.dataHolderBrandId) return false;
    if (f.externalId !== undefined && c.externalId !== f.externalId) return false;
    if (f.accessFrequency !== undefined && uc.accessFrequency !== f.accessFrequency) return false;
    if (f.postUsageAction !== undefined && c.postUsageAction !== f.postUsageAction) return false;
    if (f.directMarketingAllowed !== undefined && c.directMarketingAllowed !== f.directMarketingAllowed) return false;
    if (f.oldestCreated !== undefined && Math.floor(c.created) < f.oldestCreated) return false;
    if (f.newestCreated !== undefined && Math.floor(c.created) > f.newestCreated) return false;
    if (f.oldestRevoked !== undefined || f.newestRevoked !== undefined) {
      if (c.revoked === null) return false;
      if (f.oldestRevoked !== undefined && Math.floor(c.revoked) < f.oldestRevoked) return false;
      if (f.newestRevoked !== undefined && Math.floor(c.revoked) > f.newestRevoked) return false;
    }
    return true;
  }

  /** The same rules on a full record (changed or new consents). */
  private matchesFull(c: Consent, f: ConsentFilter): boolean {
    const t = (v: string | null | undefined) => (v ? Date.parse(v) : undefined);
    if (f.status !== undefined && c.status !== f.status) return false;
    if (f.consumerId !== undefined && c.consumerId !== f.consumerId) return false;
    if (f.consumerEmail !== undefined && c.consumerEmail?.toLowerCase() !== f.consumerEmail.toLowerCase()) return false;
    if (f.useCaseIds && !f.useCaseIds.includes(c.useCase?.id ?? '')) return false;
    if (f.dataHolderBrandId !== undefined && c.dataHolderBrandId !== f.dataHolderBrandId) return false;
    if (f.externalId !== undefined && c.externalId !== f.externalId) return false;
    if (f.consentId !== undefined && c.consentId !== f.consentId) return false;
    if (f.cdrArrangementId !== undefined && c.cdrArrangementId !== f.cdrArrangementId) return false;
    if (f.accessFrequency !== undefined && c.useCase?.accessFrequency !== f.accessFrequency) return false;
    if (f.postUsageAction !== undefined && c.postUsageAction !== f.postUsageAction) return false;
    if (f.directMarketingAllowed !== undefined && c.directMarketingAllowed !== f.directMarketingAllowed) return false;
    const created = t(c.created);
    if (f.oldestCreated !== undefined && (created === undefined || created < f.oldestCreated)) return false;
    if (f.newestCreated !== undefined && (created === undefined || created > f.newestCreated)) return false;
    const revoked = t(c.revoked);
    if (f.oldestRevoked !== undefined && (revoked === undefined || revoked < f.oldestRevoked)) return false;
    if (f.newestRevoked !== undefined && (revoked === undefined || revoked > f.newestRevoked)) return false;
    return true;
  }

  /** Applies a change to a consent, bumping its version, and persists it. */
  update(index: number, change: ConsentOverride): Consent {
    const current = this.consent(index);
    const next: ConsentOverride = { ...change, version: (current.version ?? 1) + 1 };
    if (index >= this.gen.count) {
      const k = index - this.gen.count;
      this.created[k] = { ...this.created[k]!, ...next } as Consent;
    } else this.overrides.set(index, { ...this.overrides.get(index), ...next });
    this.changeCount++;
    this.eventIndex = undefined;
    this.save();
    return this.consent(index);
  }

  addConsent(c: Consent): number {
    this.created.push(c);
    this.changeCount++;
    this.save();
    return this.total - 1;
  }

  // ---- events

  onEvent(listener: (event: ConsentEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Records an event that happens now (an API action, a webhook outcome). */
  recordEvent(index: number, eventType: EventType, eventDetail: string | null = null, notify = true): ConsentEvent {
    // Live events never go back in time, even when two happen in the same millisecond of the clock.
    const time = Math.max(this.now(), ...this.liveEvents.slice(-1).map((e) => Date.parse(e.timestamp)));
    const event = this.eventFor(index, randomUUID(), eventType, eventDetail, time);
    this.liveEvents.push(event);
    this.save();
    if (notify) for (const l of this.listeners) l(event);
    return event;
  }

  /**
   * A seeded consent's life as events. Changes made through the API are live events; the seeded
   * life runs until the sandbox clock, or until an API revocation (after which it cannot expire),
   * and an API extension moves the end it would expire at.
   */
  private seeded(index: number): SeededEvent[] {
    const core = this.gen.core(index);
    const o = this.overrides.get(index);
    const until = o?.revoked ? Math.min(this.now(), Date.parse(o.revoked) - 1) : this.now();
    const source = {
      index,
      status: core.status,
      created: core.created,
      sharingEnd: o?.sharingEndDate ? Date.parse(o.sharingEndDate) : core.sharingEnd,
      revoked: core.revoked,
      extended: core.extended,
      firstDataCollection: core.firstDataCollection,
      notifiesByEmail: this.gen.useCases[core.useCase]!.notificationType === 'EMAIL',
    };
    return seededEvents(this.gen.seed, source, until, this.opts.eventsPerConsent);
  }

  private buildEventIndex() {
    // A real-time clock moves every millisecond: the index is rebuilt at most once a minute, so
    // paging through a million events does not sort them again for every page.
    const stale = (built: number) =>
      this.opts.realTime ? Math.floor(built / 60_000) !== Math.floor(this.now() / 60_000) : built !== this.now();
    if (this.eventIndex && !stale(this.eventIndex.now)) return this.eventIndex;
    const lists: SeededEvent[][] = [];
    let total = 0;
    for (let i = 0; i < this.gen.count; i++) {
      const list = this.seeded(i);
      lists.push(list);
      total += list.length;
    }
    const time = new Float64Array(total);
    const consent = new Uint32Array(total);
    const ordinal = new Uint16Array(total);
    const type = new Uint8Array(total);
    let k = 0;
    lists.forEach((list, i) =>
      list.forEach((e, j) => {
        time[k] = e.time;
        consent[k] = i;
        ordinal[k] = j;
        type[k] = EVENT_CODE[e.type];
        k++;
      }),
    );
    const perm = new Uint32Array(total);
    for (let j = 0; j < total; j++) perm[j] = j;
    perm.sort((a, b) => time[a]! - time[b]! || a - b);
    this.eventIndex = { perm, time, consent, ordinal, type, now: this.now() };
    return this.eventIndex;
  }

  private seededEventObject(index: number, ordinal: number, e: SeededEvent, consent?: (index: number) => Consent): ConsentEvent {
    return this.eventFor(index, stableUuid(this.gen.seed, 'event', `${index}:${ordinal}`), e.type, e.detail, e.time, consent);
  }

  /** An event as served: its own fields plus the consent's identifiers at the time it is read. */
  private eventFor(
    index: number,
    eventId: string,
    eventType: EventType,
    eventDetail: string | null,
    time: number,
    consent: (index: number) => Consent = (i) => this.consent(i),
  ): ConsentEvent {
    const c = consent(index);
    return {
      eventId,
      eventType,
      eventDetail,
      timestamp: iso(time),
      consentId: c.consentId,
      cdrArrangementId: c.cdrArrangementId ?? null,
      consumerId: c.consumerId ?? null,
      postUsageAction: c.postUsageAction ?? null,
      externalId: c.externalId ?? null,
      sharingEndDate: c.sharingEndDate ?? null,
      consumerEmail: c.consumerEmail ?? null,
    };
  }

  /** Events matching the filter, oldest first: seeded ones, then live ones. Built only for the page. */
  events(f: EventFilter, offset: number, limit: number): { total: number; events: ConsentEvent[] } {
    const types = f.eventTypes ? new Set(f.eventTypes) : undefined;
    const live = this.liveEvents.filter(
      (e) =>
        (!f.consentId || e.consentId === f.consentId) &&
        (!types || types.has(e.eventType)) &&
        (f.oldest === undefined || Date.parse(e.timestamp) >= f.oldest) &&
        (f.newest === undefined || Date.parse(e.timestamp) <= f.newest),
    );
    // A seeded event's time can carry a fraction of a millisecond; it is printed (and so compared)
    // to the whole millisecond, so `newest` equal to its printed timestamp includes it.
    const inWindow = (time: number) => {
      const t = Math.floor(time);
      return (f.oldest === undefined || t >= f.oldest) && (f.newest === undefined || t <= f.newest);
    };

    let seeded: { count: number; at: (k: number) => ConsentEvent };
    if (f.consentId !== undefined) {
      const i = this.indexOf(f.consentId);
      const list =
        i === undefined || i >= this.gen.count
          ? []
          : this.seeded(i)
              .map((e, j) => ({ e, j }))
              .filter(({ e }) => (!types || types.has(e.type)) && inWindow(e.time));
      seeded = { count: list.length, at: (k) => this.seededEventObject(i!, list[k]!.j, list[k]!.e) };
    } else {
      const idx = this.buildEventIndex();
      const typeCodes = types ? new Set([...types].map((t) => EVENT_CODE[t as EventType]).filter((x) => x !== undefined)) : undefined;
      let positions: Uint32Array | number[] = idx.perm;
      if (typeCodes || f.oldest !== undefined || f.newest !== undefined) {
        positions = [];
        for (const p of idx.perm) if ((!typeCodes || typeCodes.has(idx.type[p]!)) && inWindow(idx.time[p]!)) positions.push(p);
      }
      const pos = positions;
      // A page holds several events of most of its consents: each consent's life and record are
      // made once per page, not once per event.
      const lives = new Map<number, SeededEvent[]>();
      const records = new Map<number, Consent>();
      const life = (i: number) => lives.get(i) ?? (lives.set(i, this.seeded(i)), lives.get(i)!);
      const record = (i: number) => records.get(i) ?? (records.set(i, this.consent(i)), records.get(i)!);
      seeded = {
        count: pos.length,
        at: (k) => {
          const p = pos[k]!;
          const i = idx.consent[p]!;
          const j = idx.ordinal[p]!;
          return this.seededEventObject(i, j, life(i)[j]!, record);
        },
      };
    }
    const total = seeded.count + live.length;
    const events: ConsentEvent[] = [];
    for (let k = offset; k < Math.min(offset + limit, total); k++) events.push(k < seeded.count ? seeded.at(k) : live[k - seeded.count]!);
    return { total, events };
  }

  // ---- persistence

  reset(): void {
    this.overrides.clear();
    this.created = [];
    this.liveEvents = [];
    this.clockOffsetMs = 0;
    this.changeCount++;
    this.eventIndex = undefined;
    this.save();
  }

  private load(file: string, state: StateFile): void {
    if (state.format !== 'cdr-sandbox-state/1') throw new StateFileError(`${file} is not a sandbox state file.`);
    if (state.seed !== this.opts.seed || state.consents !== this.opts.consents) {
      throw new StateFileError(
        `${file} holds changes to seed ${state.seed} with ${state.consents} consents; this sandbox has seed ${this.opts.seed} with ${this.opts.consents}. Use the same settings, or another state file.`,
      );
    }
    this.clockOffsetMs = state.clockOffsetMs;
    this.created = state.created;
    this.liveEvents = state.events;
    for (const [id, o] of Object.entries(state.overrides)) {
      const i = this.indexOf(id);
      if (i !== undefined) this.overrides.set(i, o);
    }
  }

  private save(): void {
    const file = this.opts.stateFile;
    if (!file) return;
    const state: StateFile = {
      format: 'cdr-sandbox-state/1',
      seed: this.opts.seed,
      consents: this.opts.consents,
      clockOffsetMs: this.clockOffsetMs,
      ...(this.opts.realTime ? { clockOrigin: new Date(this.gen.origin).toISOString() } : {}),
      overrides: Object.fromEntries([...this.overrides].map(([i, o]) => [this.gen.consentId(i), o])),
      created: this.created,
      events: this.liveEvents,
    };
    const tmp = `${file}.tmp`;
    writeFileSync(tmp, JSON.stringify(state), { mode: 0o600 });
    renameSync(tmp, file);
  }
}

function readState(file: string): StateFile {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as StateFile;
  } catch (error) {
    throw new StateFileError(
      `The sandbox state file ${file} is not valid JSON (${(error as Error).message}); move it aside to start fresh.`,
    );
  }
}

export { STATUS_CODES, type StatusCode };
