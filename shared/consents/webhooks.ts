/** The webhook delivery failures the intermediary reports as consent events (one list for the core, both engines and the screens). */
export const WEBHOOK_FAILURES = ['WEBHOOK_SENDING_FAILED', 'WEBHOOK_SENDING_FAILED_CLIENT_ERROR', 'WEBHOOK_MAX_RETRIES_REACHED'] as const;

/** Every webhook delivery: sent, or one of the failures. */
export const WEBHOOK_DELIVERIES = ['WEBHOOK_SENT', ...WEBHOOK_FAILURES] as const;
