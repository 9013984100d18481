import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { Identifier } from '../../../shared/ipc/identifier.js';
import { Environment } from '../../../shared/ipc/contract.js';
import { writePrivateFile } from '../data-dir.js';

/**
 * Connection profiles: one per intermediary environment the operator works with. The embedded
 * sandbox is the default. Stored as `profiles.json` in the data directory. Secrets are NOT stored
 * here: a real profile's client secret lives in the credential vault (see docs/running.md, "Pointing it at a real intermediary").
 */
export const EMBEDDED_SANDBOX_PROFILE_ID = 'sandbox';

export const ClientAuth = z.discriminatedUnion('method', [
  z.strictObject({ method: z.literal('client_secret_basic') }),
  z.strictObject({ method: z.literal('client_secret_post') }),
  z.strictObject({ method: z.literal('private_key_jwt'), keyId: z.string().min(1), algorithm: z.string().min(1) }),
]);

export const Profile = z
  .strictObject({
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
    softwareProductId: Identifier.optional(),
    webhookTarget: z.string().optional(),
    /** Where the data holder sends the consumer back after an authorization (creation, extension). */
    redirectUri: z.url().optional(),
  })
  .superRefine((p, ctx) => {
    for (const field of ['consentApiBaseUrl', 'dataApiBaseUrl', 'tokenUrl', 'redirectUri'] as const) {
      const value = p[field];
      const problem = value === undefined ? null : urlProblem(field, value, p.environment);
      if (problem) ctx.addIssue({ code: 'custom', path: [field], message: problem });
    }
  });
export type Profile = z.infer<typeof Profile>;

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * What is wrong with a profile's URL, or null. The API and token endpoints are called with the
 * client secret and bearer tokens: only http(s), and in a production profile https only (a secret
 * must never travel in clear), except on this machine (127.0.0.1, ::1, localhost: a local proxy or
 * a test double). file:, javascript: and data: URLs are refused for any profile and any field.
 */
export function urlProblem(field: string, value: string, environment: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${field} is not a URL`;
  }
  const scheme = url.protocol;
  if (scheme === 'file:' || scheme === 'javascript:' || scheme === 'data:') return `${field} cannot be a ${scheme} URL`;
  if (field === 'redirectUri') return null; // the data holder redirects the consumer there; an app scheme is fine
  if (scheme !== 'https:' && scheme !== 'http:') return `${field} must be an https URL (not ${scheme})`;
  if (environment === 'prod' && scheme === 'http:' && !LOOPBACK_HOSTS.has(url.hostname))
    return `${field} must use https in a production profile (http is allowed only for 127.0.0.1, ::1 and localhost)`;
  return null;
}

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
    writePrivateFile(file, `${JSON.stringify(defaults, null, 2)}\n`);
    return defaults;
  }
  let raw: unknown;
  try {
    // A UTF-8 byte order mark (Notepad writes one) is not part of the JSON.
    raw = JSON.parse(readFileSync(file, 'utf8').replace(/^\uFEFF/, ''));
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
