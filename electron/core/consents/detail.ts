import type { ConsentDetail } from '../../../shared/ipc/contract.js';
import { CoreError } from '../errors.js';
import type { AuditStore } from '../audit/port.js';
import type { DataStore } from '../data/port.js';
import type { EventStore } from '../events/port.js';
import type { ConsentStore, ReferenceStore } from './port.js';

/**
 * Everything the console knows about one consent, from the store: the payload, every version
 * seen, its events, what staff did to it, what retention did to its data, its cached data per
 * kind, and its use case and data holder as the reference lists describe them.
 */
export interface DetailDeps {
  consents: ConsentStore;
  events: EventStore;
  audit: AuditStore;
  reference: ReferenceStore;
  data: DataStore;
}

export async function readConsentDetail(deps: DetailDeps, consentId: string): Promise<ConsentDetail> {
  const consent = await deps.consents.get(consentId);
  if (!consent) throw new CoreError('NOT_FOUND', `Consent ${consentId} is not in the cache; sync, or check the id.`);
  const brandId = consent.dataHolderBrandId;
  const [holder, syncedAt, versions, events, audit, retention, data, useCase] = await Promise.all([
    brandId ? deps.reference.dataHolder(brandId) : undefined,
    deps.consents.syncedAt(consentId),
    deps.consents.versions(consentId, 1000),
    deps.events.forConsent(consentId, 5000),
    deps.audit.entries({ target: consentId, limit: 5000 }),
    deps.data.retentionLog(consentId),
    deps.data.collectionsFor(consentId),
    consent.useCase?.id ? deps.reference.useCase(consent.useCase.id) : undefined,
  ]);
  return {
    consent,
    syncedAt,
    versions,
    events,
    audit,
    retention,
    data,
    useCase: useCase ?? null,
    dataHolder:
      holder ??
      (brandId
        ? { dataHolderBrandId: brandId, brandName: consent.dataHolderName ?? null, logoUri: consent.dataHolderLogoUri ?? null }
        : null),
  };
}
