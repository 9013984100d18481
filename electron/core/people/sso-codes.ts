/**
 * The single sign-on refusals (oidc.ts throws them), kept apart from oidc.ts so what reads them
 * (people.ts) does not load the OpenID client where no single sign-on is set.
 */
export type OidcErrorCode =
  | 'unreachable'
  | 'not_a_provider'
  | 'misconfigured'
  | 'expired'
  | 'replayed'
  | 'wrong_state'
  | 'provider_error'
  | 'code_rejected'
  | 'wrong_issuer'
  | 'wrong_audience'
  | 'wrong_nonce'
  | 'invalid_token'
  | 'unknown_group'
  | 'no_groups_claim'
  | 'ambiguous_role'
  | 'client_rejected';

/**
 * The refusals that are the server's set-up, not the person's doing: an admin must act, so they are
 * said on the server's status (the Users screen) as well as in the log.
 */
export const ADMIN_PROBLEMS: ReadonlySet<OidcErrorCode> = new Set<OidcErrorCode>([
  'unreachable',
  'not_a_provider',
  'misconfigured',
  'client_rejected',
  'no_groups_claim',
  'wrong_audience',
  'wrong_issuer',
]);
