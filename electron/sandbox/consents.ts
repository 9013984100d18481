import { faker } from '@faker-js/faker/locale/en_AU';
import type { Consent } from '../../shared/schemas/consent.js';
import { stableHex, stableUuid } from './ids.js';
import { dataHolders, useCases } from './reference-data.js';

/**
 * The sandbox's consents. Consent i depends only on (seed, i, clock origin): the generator
 * reseeds per record, so any slice can be produced without the records before it, and the same
 * seed gives the same bytes whatever page size reads them.
 */
export const DEFAULT_CLOCK_ORIGIN = '2026-11-01T00:00:00.000Z';

const DAY = 86_400_000;
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

export interface ConsentGenerator {
  readonly count: number;
  at(index: number): Consent;
}

export function createConsentGenerator(seed: number, count: number, clockOrigin = DEFAULT_CLOCK_ORIGIN): ConsentGenerator {
  const now = Date.parse(clockOrigin);
  const allUseCases = useCases(seed);
  const holders = dataHolders(seed);
  const holdersByIndustry = {
    banking: holders.filter((h) => h.industry === 'banking'),
    energy: holders.filter((h) => h.industry === 'energy'),
  };
  const iso = (ms: number) => new Date(Math.floor(ms)).toISOString();

  return {
    count,
    at(index) {
      faker.seed([seed, index]);
      const useCase = faker.helpers.arrayElement(allUseCases);
      const holder = faker.helpers.arrayElement(holdersByIndustry[useCase.industry]);
      const roll = faker.number.float({ min: 0, max: 1 });
      const status = roll < 0.55 ? 'ACTIVE' : roll < 0.75 ? 'REVOKED' : roll < 0.9 ? 'EXPIRED' : 'REQUESTED';
      const duration = faker.helpers.arrayElement(useCase.sharingDurations ?? ['ONE_YEAR']);
      const lengthMs = (DURATION_DAYS[duration] ?? 365) * DAY;

      // Pick `created` so the status is true at the clock origin.
      let created: number;
      if (status === 'EXPIRED') created = now - lengthMs - faker.number.int({ min: 1, max: 200 }) * DAY;
      else if (status === 'REQUESTED') created = now - faker.number.int({ min: 0, max: 3 * DAY });
      else created = now - faker.number.float({ min: 0.05, max: 0.95 }) * lengthMs;
      created -= faker.number.int({ min: 0, max: 86_399_999 }) % DAY;
      const sharingEndDate = created + lengthMs;
      const revoked = status === 'REVOKED' ? created + faker.number.float({ min: 0.05, max: 0.95 }) * (now - created) : null;
      const granted = status !== 'REQUESTED';

      const first = faker.person.firstName();
      const last = faker.person.lastName();
      const tag = stableHex(seed, 'consumer', index, 4);
      const mobile = `+614${faker.string.numeric(8)}`;
      const consent: Consent = {
        consentId: stableUuid(seed, 'consent', index),
        version: 1 + (revoked ? 1 : 0) + (granted ? 1 : 0),
        created: iso(created),
        revoked: revoked === null ? null : iso(revoked),
        lastNotificationSentAt: granted ? iso(revoked ?? created + DAY / 24) : null,
        firstDataCollection: granted ? iso(created + faker.number.int({ min: 5_000, max: 600_000 })) : null,
        status,
        sharingEndDate: iso(sharingEndDate),
        consumerEmail: `${first}.${last}.${tag}@example.com`.toLowerCase().replace(/[^a-z0-9.@-]/g, ''),
        consumerMobileNumber: mobile,
        consumerId: `auth0|${stableHex(seed, 'consumer-id', index, 24)}`,
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
        postUsageAction: faker.datatype.boolean({ probability: 0.8 }) ? 'DELETION' : 'DE_IDENTIFICATION',
        cdrArrangementId: granted ? stableUuid(seed, 'arrangement', index) : null,
        directMarketingAllowed: faker.datatype.boolean({ probability: 0.3 }),
        externalId: faker.datatype.boolean({ probability: 0.7 }) ? `CRM-${faker.string.numeric(7)}` : null,
        customerIPAddress: faker.internet.ipv4(),
      };
      return consent;
    },
  };
}
