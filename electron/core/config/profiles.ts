import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { Environment } from '../../../shared/ipc/contract.js';

/**
 * Connection profiles: one per intermediary environment the operator works with. The embedded
 * sandbox is the default. Stored as `profiles.json` in the data directory. Secrets are NOT stored
 * here: a real profile's client secret lives in the credential vault (see README, "Profiles").
 */
export const EMBEDDED_SANDBOX_PROFILE_ID = 'sandbox';

export const ClientAuth = z.discriminatedUnion('method', [
  z.strictObject({ method: z.literal('client_secret_basic') }),
  z.strictObject({ method: z.literal('client_secret_post') }),
  z.strictObject({ method: z.literal('private_key_jwt'), keyId: z.string().min(1), algorithm: z.string().min(1) }),
]);

export const Profile = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'lower-case letters, digits and hyphens'),
  name: z.string().min(1),
  environment: Environment,
  /** The embedded sandbox: URLs are filled in at run time with the port it got. */
  embedded: z.boolean().default(false),
  consentApiBaseUrl: z.url().optional(),
  dataApiBaseUrl: z.url().optional(),
  tokenUrl: z.url().optional(),
  clientId: z.string().min(1),
  clientAuth: ClientAuth,
  scopes: z.array(z.string()).default([]),
  softwareProductId: z.string().optional(),
  webhookTarget: z.string().optional(),
  /** Where the data holder sends the consumer back after an authorization (creation, extension). */
  redirectUri: z.url().optional(),
});
export type Profile = z.infer<typeof Profile>;

export const ProfilesFile = z.strictObject({
  version: z.literal(1),
  defaultProfileId: z.string(),
  profiles: z.array(Profile).min(1),
});
export type ProfilesFile = z.infer<typeof ProfilesFile>;

export const SANDBOX_CLIENT_ID = 'sandbox-client';
/** Not a secret: the embedded sandbox's documented demo credential. */
export const SANDBOX_CLIENT_SECRET = 'sandbox-secret';

export function defaultProfiles(): ProfilesFile {
  return {
    version: 1,
    defaultProfileId: EMBEDDED_SANDBOX_PROFILE_ID,
    profiles: [
      {
        id: EMBEDDED_SANDBOX_PROFILE_ID,
        name: 'Embedded sandbox',
        environment: 'sandbox',
        embedded: true,
        clientId: SANDBOX_CLIENT_ID,
        clientAuth: { method: 'client_secret_basic' },
        scopes: ['consents:read', 'consents:write', 'use-cases:read', 'data-holders:read', 'tokens:write'],
      },
    ],
  };
}

export class ProfilesError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProfilesError';
  }
}

/** Reads profiles.json, writing the default file on first run. A broken file is never overwritten. */
export function loadProfiles(dataDir: string): ProfilesFile {
  const file = join(dataDir, 'profiles.json');
  if (!existsSync(file)) {
    const defaults = defaultProfiles();
    const tmp = `${file}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(defaults, null, 2)}\n`, { mode: 0o600 });
    renameSync(tmp, file);
    return defaults;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ProfilesError(`${file} is not valid JSON (${(error as Error).message}); fix or move it aside to start with the defaults.`);
  }
  const parsed = ProfilesFile.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ProfilesError(`${file}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  const ids = new Set<string>();
  for (const p of parsed.data.profiles) {
    if (ids.has(p.id)) throw new ProfilesError(`${file}: profile id "${p.id}" is used twice.`);
    ids.add(p.id);
    if (!p.embedded && (!p.consentApiBaseUrl || !p.tokenUrl)) {
      throw new ProfilesError(`${file}: profile "${p.id}" needs consentApiBaseUrl and tokenUrl.`);
    }
  }
  if (!ids.has(parsed.data.defaultProfileId)) {
    throw new ProfilesError(`${file}: defaultProfileId "${parsed.data.defaultProfileId}" names no profile.`);
  }
  return parsed.data;
}

export function pickProfile(file: ProfilesFile, id: string | undefined): Profile {
  const wanted = id ?? file.defaultProfileId;
  const profile = file.profiles.find((p) => p.id === wanted);
  if (!profile) throw new ProfilesError(`No profile named "${wanted}". Known: ${file.profiles.map((p) => p.id).join(', ')}.`);
  return profile;
}
