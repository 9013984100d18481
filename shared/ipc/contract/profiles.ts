import * as z from 'zod';
import { Empty, Environment, type ChannelSchema } from './common.js';
import { ADMIN, EVERYONE } from '../roles.js';

/** Connection profiles. */

/** A connection profile as the renderer sees it: never its secret or key, only whether one is stored. */
export const ProfileSummary = z.object({
  id: z.string(),
  name: z.string(),
  environment: Environment,
  embedded: z.boolean(),
  consentApiBaseUrl: z.string().nullable(),
  dataApiBaseUrl: z.string().nullable().optional(),
  tokenUrl: z.string().nullable(),
  clientId: z.string(),
  authMethod: z.string(),
  keyId: z.string().nullable().optional(),
  algorithm: z.string().nullable().optional(),
  scopes: z.array(z.string()).optional(),
  softwareProductId: z.string().nullable().optional(),
  redirectUri: z.string().nullable().optional(),
  isDefault: z.boolean(),
  isCurrent: z.boolean(),
  /** Whether its secret or key is in the vault (never the value). */
  hasCredential: z.boolean(),
});
export type ProfileSummary = z.infer<typeof ProfileSummary>;
const ProfileId = z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'lower-case letters, digits and hyphens');

/**
 * A profile added or edited in Settings. The secret (client secret, or the PEM private key for
 * private_key_jwt) crosses IPC this once, into main's vault: write-only, never returned, logged or
 * cached. Absent on an edit: the stored one is kept.
 */
export const ProfileInput = z.strictObject({
  id: ProfileId,
  name: z.string().trim().min(1).max(80),
  environment: z.enum(['nonprod', 'prod']),
  consentApiBaseUrl: z.url().max(2000),
  dataApiBaseUrl: z.url().max(2000).optional(),
  tokenUrl: z.url().max(2000),
  clientId: z.string().trim().min(1).max(200),
  authMethod: z.enum(['client_secret_basic', 'client_secret_post', 'private_key_jwt']),
  keyId: z.string().trim().min(1).max(200).optional(),
  algorithm: z.enum(['PS256', 'ES256', 'RS256']).optional(),
  scopes: z.array(z.string().min(1).max(100)).max(50),
  softwareProductId: z.string().max(200).optional(),
  redirectUri: z.url().max(2000).optional(),
  secret: z.string().min(1).max(20_000).optional(),
  makeDefault: z.boolean().optional(),
});
export type ProfileInput = z.infer<typeof ProfileInput>;

export const ProfileSwitched = z.object({ profileId: z.string(), ok: z.boolean(), message: z.string().nullable() });

export const profilesChannels = {
  'profiles:list': {
    reads: [],
    roles: EVERYONE,
    action: 'Listing connection profiles',
    input: Empty,
    output: z.array(ProfileSummary).max(100),
  },
  'profiles:save': { roles: ADMIN, action: 'Saving a connection profile', input: ProfileInput, output: z.array(ProfileSummary).max(100) },
  'profiles:remove': {
    roles: ADMIN,
    action: 'Removing a connection profile',
    input: z.strictObject({ id: ProfileId }),
    output: z.array(ProfileSummary).max(100),
  },
  'profiles:switch': {
    roles: ADMIN,
    action: 'Switching the connection profile',
    input: z.strictObject({ id: ProfileId }),
    output: z.object({ switching: z.literal(true) }),
  },
  'profiles:test': {
    roles: EVERYONE,
    action: 'Checking the connection',
    input: z.strictObject({ id: ProfileId.optional() }),
    output: z.object({
      ok: z.boolean(),
      steps: z.array(z.object({ step: z.enum(['token', 'consent-list']), ok: z.boolean(), detail: z.string() })),
    }),
  },
} as const satisfies Record<string, ChannelSchema>;
