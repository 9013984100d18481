import { createConsentGenerator } from '../../electron/sandbox/consents.js';
import { World } from '../../electron/sandbox/world.js';
import type { Consent, ConsentEvent, UseCase } from '../../shared/schemas/consent.js';

/**
 * The contract suites' data: the embedded sandbox's seeded consents, their events, its use cases
 * and data holders (the same shapes a sync stores), small enough that every expectation is
 * computed here in plain JavaScript and compared with what the store answers.
 */
export const SYNCED_AT = '2026-11-01T00:00:00.000Z';

export function sampleWorld(consentCount = 80) {
  const gen = createConsentGenerator(11, consentCount);
  const consents: Consent[] = Array.from({ length: consentCount }, (_, i) => gen.at(i));
  const world = new World({ seed: 11, consents: consentCount });
  const events: ConsentEvent[] = world.events({}, 0, 1_000_000).events;
  const useCases = gen.useCases as unknown as UseCase[];
  const holders = gen.holders.map((h) => ({ dataHolderBrandId: h.dataHolderBrandId, brandName: h.brandName }));
  return { consents, events, useCases, holders };
}

/** A transaction as the Data API returns it, with the intermediary's block naming its consent. */
export function transaction(consentId: string, i: number, description: string): Record<string, unknown> {
  const day = String(1 + (i % 28)).padStart(2, '0');
  return {
    accountId: `acc-${consentId.slice(0, 8)}`,
    transactionId: `tx-${consentId.slice(0, 8)}-${i}`,
    isDetailAvailable: false,
    type: 'PAYMENT',
    status: 'POSTED',
    description,
    postingDateTime: `2026-10-${day}T10:00:00.000Z`,
    executionDateTime: `2026-10-${day}T09:00:00.000Z`,
    amount: (-(i + 1) * 1.25).toFixed(2),
    currency: 'AUD',
    reference: '',
    adatree: { consentId, resourceId: `tx-${consentId}-${i}` },
  };
}
