/**
 * The consent as the data browser's header shows it, from a store's row of the consents table (the
 * same columns in both stores), or null for a consent the store does not hold.
 */
export const CONSENT_SUMMARY_COLUMNS =
  'status, consumer_email, consumer_id, data_holder_name, data_holder_brand_id, use_case_name, post_usage_action, synced_at';

export function consentSummaryOf(row: Record<string, string | null> | undefined) {
  return row
    ? {
        status: row.status ?? null,
        consumerEmail: row.consumer_email ?? null,
        consumerId: row.consumer_id ?? null,
        dataHolderName: row.data_holder_name ?? null,
        dataHolderBrandId: row.data_holder_brand_id ?? null,
        useCaseName: row.use_case_name ?? null,
        postUsageAction: row.post_usage_action ?? null,
        syncedAt: row.synced_at ?? null,
      }
    : null;
}
