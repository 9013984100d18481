/**
 * De-identification: the fields that identify a person or an account are removed, recursively;
 * amounts, dates, categories and product terms stay, so aggregate analysis still works.
 */
const IDENTIFYING = new Set([
  'accountId',
  'accountNumber',
  'bsb',
  'maskedNumber',
  'displayName',
  'nickname',
  'payeeId',
  'transactionId',
  'scheduledPaymentId',
  'payerReference',
  'payeeReference',
  'reference',
  'crn',
  'description',
  'merchantName',
  'firstName',
  'lastName',
  'middleNames',
  'prefix',
  'suffix',
  'businessName',
  'legalName',
  'shortName',
  'abn',
  'acn',
  'agentFirstName',
  'agentLastName',
  'phoneNumbers',
  'emailAddresses',
  'physicalAddresses',
  'addresses',
  'nationalMeteringId',
  'servicePointId',
  'servicePoints',
  'servicePointIds',
  'meterId',
  'invoiceNumber',
  'consumerId',
  'consumerEmail',
  'consumerMobileNumber',
  'offsetAccountIds',
  'authorisedEntity',
  'to',
  'from',
  // The intermediary's block links a record to its consent and consumer.
  'adatree',
]);

/** `value` without the identifying fields, at any depth. */
export function deidentify(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(deidentify);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([k]) => !IDENTIFYING.has(k))
        .map(([k, v]) => [k, deidentify(v)]),
    );
  }
  return value;
}
