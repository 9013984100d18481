import type { ConsentDetail } from '../../shared/ipc/contract.js';
import { CoreError } from '../ipc/router.js';
import type { AuditLog } from './audit/audit-log.js';
import type { ConsentsRepo } from './cache/consents-repo.js';
import type { DataRepo } from './cache/data-repo.js';
import type { Db } from './cache/database.js';
import type { EventsRepo, ReferenceRepo } from './cache/events-repo.js';
import { retentionLog } from './retention/retention.js';

/**
 * Everything the console knows about one consent, from the cache: the payload, every version
 * seen, its events, what staff did to it, what retention did to its data, its cached data per
 * kind, and its use case and data holder as the reference lists describe them.
 */
export interface DetailDeps {
  db: Db;
  consents: ConsentsRepo;
  events: EventsRepo;
  audit: AuditLog;
  reference: ReferenceRepo;
  data: DataRepo;
}

export function readConsentDetail(deps: DetailDeps, consentId: string): ConsentDetail {
  const consent = deps.consents.get(consentId);
  if (!consent) throw new CoreError('NOT_FOUND', `Consent ${consentId} is not in the cache; sync, or check the id.`);
  const brandId = consent.dataHolderBrandId;
  const holder = brandId ? deps.reference.dataHolder(brandId) : undefined;
  return {
    consent,
    syncedAt: deps.consents.syncedAt(consentId),
    versions: deps.consents.versions(consentId).slice(-1000),
    events: deps.events.forConsent(consentId, 5000),
    audit: deps.audit.entries({ target: consentId, limit: 5000 }),
    retention: retentionLog(deps.db, consentId).map(({ consent_id, ...r }) => ({ consentId: consent_id, ...r })),
    data: deps.data.collectionsFor(consentId),
    useCase: (consent.useCase?.id ? deps.reference.useCase(consent.useCase.id) : undefined) ?? null,
    dataHolder:
      holder ??
      (brandId
        ? { dataHolderBrandId: brandId, brandName: consent.dataHolderName ?? null, logoUri: consent.dataHolderLogoUri ?? null }
        : null),
  };
}
