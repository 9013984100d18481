/**
 * Every column of the consent list; each can be shown, ordered and sorted by. Without zod (the
 * contract's ConsentSortField is its enum), so the page reads a view from its address without it.
 */
export const CONSENT_SORT_FIELDS = [
  'created',
  'sharingEndDate',
  'revoked',
  'firstDataCollection',
  'status',
  'consumerEmail',
  'consumerMobile',
  'consumerId',
  'dataHolderName',
  'useCaseName',
  'accessFrequency',
  'postUsageAction',
  'directMarketingAllowed',
  'externalId',
  'cdrArrangementId',
  'consentId',
  'version',
] as const;
