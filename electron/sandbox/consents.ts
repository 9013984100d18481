import type { Consent } from '../../shared/schemas/consent.js';
import { stableUuid } from './ids.js';
import { FIRST_NAMES, LAST_NAMES } from './names.js';
import { hashString, Rng } from './random.js';
import { dataHolders, useCases, type SandboxDataHolder, type SandboxUseCase } from './reference-data.js';

/**
 * The sandbox's seeded consents. Consent i depends only on (seed, i, count, clock origin), so any
 * slice can be produced without the records before it and the same seed gives the same bytes
 * whatever page size reads them. Creation times rise with the index (over ~18 months before the
 * clock origin), and each status is true at the origin: REQUESTED only for recent requests,
 * EXPIRED when the sharing period has ended, REVOKED at a time between creation and its end.
 */
export const DEFAULT_CLOCK_ORIGIN = '2026-11-01T00:00:00.000Z';
export const DAY = 86_400_000;
const SPAN = 540 * DAY;
const DURATION_DAYS: Record<string, number> = {
  ONE_DAY: 1,
  ONE_WEEK: 7,
  TWO_WEEKS: 14,
  ONE_MONTH: 30,
  THREE_MONTHS: 91,
  SIX_MONTHS: 182,
  NINE_MONTHS: 273,
  ONE_YEAR: 365,
  CUSTOM: 240,
  ONCE_OFF: 1,
};

export const STATUS_CODES = ['REQUESTED', 'ACTIVE', 'REVOKED', 'EXPIRED'] as const;
export type StatusCode = 0 | 1 | 2 | 3;
const K_CORE = hashString('consent-core');
const K_CONSUMER = hashString('consumer');

/** The attributes filters need, cheap to compute (no strings but the external id). */
export interface ConsentCore {
  index: number;
  status: StatusCode;
  useCase: number;
  holder: number;
  consumer: number;
  created: number;
  /** Sharing end after any extension. */
  sharingEnd: number;
  revoked: number | null;
  /** When the consent was extended, if it was. */
  extended: number | null;
  postUsageAction: 'DELETION' | 'DE_IDENTIFICATION';
  directMarketingAllowed: boolean;
  externalId: string | null;
  firstDataCollection: number | null;
}

export interface Consumer {
  consumerId: string;
  email: string;
  mobile: string;
  firstName: string;
  lastName: string;
}

export interface ConsentGenerator {
  readonly count: number;
  readonly seed: number;
  readonly origin: number;
  readonly useCases: readonly SandboxUseCase[];
  readonly holders: readonly SandboxDataHolder[];
  readonly consumers: number;
  core(index: number): ConsentCore;
  consumer(index: number): Consumer;
  /** The full consent as served, at the clock origin. */
  at(index: number): Consent;
  consentId(index: number): string;
}

export function createConsentGenerator(seed: number, count: number, clockOrigin = DEFAULT_CLOCK_ORIGIN): ConsentGenerator {
  const origin = Date.parse(clockOrigin);
  const allUseCases = useCases(seed);
  const holders = dataHolders(seed);
  const holdersByIndustry = {
    banking: holders.map((h, i) => ({ h, i })).filter((x) => x.h.industry === 'banking'),
    energy: holders.map((h, i) => ({ h, i })).filter((x) => x.h.industry === 'energy'),
  };
  // About 1.6 consents per consumer: some consumers share with several holders.
  const consumers = Math.max(1, Math.ceil(count / 1.6));
  const iso = (ms: number) => new Date(Math.floor(ms)).toISOString();

  function core(index: number): ConsentCore {
    const r = new Rng(seed, K_CORE, index);
    const useCaseIndex = r.int(0, allUseCases.length - 1);
    const useCase = allUseCases[useCaseIndex]!;
    const holder = r.pick(holdersByIndustry[useCase.industry]).i;
    const consumer = r.int(0, consumers - 1);
    const created = origin - SPAN * (1 - (index + r.float()) / Math.max(count, 1));
    const duration = r.pick(useCase.sharingDurations ?? ['ONE_YEAR']);
    let sharingEnd = created + (DURATION_DAYS[duration] ?? 365) * DAY;
    let extended: number | null = null;
    let revoked: number | null = null;
    let status: StatusCode;
    const recent = origin - created < 7 * DAY;
    if (recent && r.chance(0.35)) {
      // A pending request still asks for its full period: it cannot end before it can be granted.
      status = 0;
      sharingEnd = Math.max(sharingEnd, origin + (DURATION_DAYS[duration] ?? 365) * DAY);
    } else {
      if (useCase.accessFrequency === 'ONGOING' && sharingEnd > origin - 30 * DAY && r.chance(0.12)) {
        extended = created + r.float() * (Math.min(sharingEnd, origin) - created);
        sharingEnd += 182 * DAY;
      }
      if (r.chance(0.22)) {
        revoked = created + r.float() * (Math.min(sharingEnd, origin) - created) * 0.95 + 60_000;
        status = 2;
      } else status = sharingEnd <= origin ? 3 : 1;
    }
    const granted = status !== 0;
    const postUsageAction = r.chance(0.8) ? 'DELETION' : 'DE_IDENTIFICATION';
    const directMarketingAllowed = r.chance(0.3);
    const externalId = r.chance(0.7) ? `CRM-${r.digits(7)}` : null;
    const firstDataCollection = granted ? Math.min(created + r.int(5_000, 600_000), origin) : null;
    return {
      index,
      status,
      useCase: useCaseIndex,
      holder,
      consumer,
      created,
      sharingEnd,
      revoked,
      extended,
      postUsageAction,
      directMarketingAllowed,
      externalId,
      firstDataCollection,
    };
  }

  function consumer(index: number): Consumer {
    const r = new Rng(seed, K_CONSUMER, index);
    const firstName = r.pick(FIRST_NAMES);
    const lastName = r.pick(LAST_NAMES);
    const local = `${firstName}.${lastName}`.toLowerCase().replace(/[^a-z.]/g, '');
    return {
      firstName,
      lastName,
      consumerId: `auth0|${r.hex(24)}`,
      email: `${local}.${r.hex(4)}@example.com`,
      mobile: `+614${r.digits(8)}`,
    };
  }

  function at(index: number): Consent {
    const c = core(index);
    const person = consumer(c.consumer);
    const useCase = allUseCases[c.useCase]!;
    const holder = holders[c.holder]!;
    const granted = c.status !== 0;
    const r = new Rng(seed, K_CORE ^ 0x5bd1e995, index);
    return {
      consentId: stableUuid(seed, 'consent', index),
      version: 1 + (granted ? 1 : 0) + (c.extended !== null ? 1 : 0) + (c.revoked !== null ? 1 : 0),
      created: iso(c.created),
      revoked: c.revoked === null ? null : iso(c.revoked),
      lastNotificationSentAt: granted ? iso(Math.min(c.revoked ?? c.created + 3_600_000, origin)) : null,
      firstDataCollection: c.firstDataCollection === null ? null : iso(c.firstDataCollection),
      status: STATUS_CODES[c.status],
      sharingEndDate: iso(c.sharingEnd),
      consumerEmail: person.email,
      consumerMobileNumber: person.mobile,
      consumerId: person.consumerId,
      dataHolderName: holder.brandName,
      dataHolderBrandId: holder.dataHolderBrandId,
      useCase: {
        id: useCase.id,
        name: useCase.name,
        description: useCase.description,
        notificationType: useCase.notificationType,
        accessFrequency: useCase.accessFrequency,
        scopes: useCase.scopes,
      },
      postUsageAction: c.postUsageAction,
      cdrArrangementId: granted ? stableUuid(seed, 'arrangement', index) : null,
      directMarketingAllowed: c.directMarketingAllowed,
      externalId: c.externalId,
      customerIPAddress: `${r.int(1, 223)}.${r.int(0, 255)}.${r.int(0, 255)}.${r.int(1, 254)}`,
    };
  }

  return {
    count,
    seed,
    origin,
    useCases: allUseCases,
    holders,
    consumers,
    core,
    consumer,
    at,
    consentId: (index) => stableUuid(seed, 'consent', index),
  };
}
