import { join } from 'node:path';
import type { ProfileInput, ProfileSummary } from '../../../shared/ipc/contract.js';
import { CoreError } from '../errors.js';
import { secretNames, type SecretVault } from '../secrets/vault.js';
import { loadProfiles, Profile, type ProfilesFile } from './profiles.js';
import { writePrivateFile } from '../data-dir.js';

/**
 * Adding, editing and removing connection profiles from Settings. profiles.json never holds a
 * secret: the client secret or private key goes to the encrypted vault, and what the renderer sees
 * of it is whether one is stored.
 */
export function writeProfiles(dataDir: string, file: ProfilesFile): void {
  const path = join(dataDir, 'profiles.json');
  writePrivateFile(path, `${JSON.stringify(file, null, 2)}\n`);
}

const credentialName = (p: Profile) =>
  p.clientAuth.method === 'private_key_jwt' ? secretNames.privateKey(p.id) : secretNames.clientSecret(p.id);

export function profileSummaries(dataDir: string, vault: SecretVault, currentId: string): ProfileSummary[] {
  const file = loadProfiles(dataDir);
  return file.profiles.map((p) => ({
    id: p.id,
    name: p.name,
    environment: p.environment,
    embedded: p.embedded,
    consentApiBaseUrl: p.consentApiBaseUrl ?? null,
    dataApiBaseUrl: p.dataApiBaseUrl ?? null,
    tokenUrl: p.tokenUrl ?? null,
    clientId: p.clientId,
    authMethod: p.clientAuth.method,
    keyId: p.clientAuth.method === 'private_key_jwt' ? p.clientAuth.keyId : null,
    algorithm: p.clientAuth.method === 'private_key_jwt' ? p.clientAuth.algorithm : null,
    scopes: p.scopes,
    softwareProductId: p.softwareProductId ?? null,
    redirectUri: p.redirectUri ?? null,
    isDefault: p.id === file.defaultProfileId,
    isCurrent: p.id === currentId,
    hasCredential: p.embedded || vault.has(credentialName(p)),
  }));
}

export function saveProfile(dataDir: string, vault: SecretVault, input: ProfileInput): void {
  const file = loadProfiles(dataDir);
  const existing = file.profiles.find((p) => p.id === input.id);
  if (existing?.embedded) throw new CoreError('INVALID_INPUT', 'The embedded sandbox profile cannot be edited.');
  const candidate = {
    id: input.id,
    name: input.name,
    environment: input.environment,
    embedded: false,
    consentApiBaseUrl: input.consentApiBaseUrl,
    dataApiBaseUrl: input.dataApiBaseUrl ?? input.consentApiBaseUrl,
    tokenUrl: input.tokenUrl,
    clientId: input.clientId,
    clientAuth:
      input.authMethod === 'private_key_jwt'
        ? { method: input.authMethod, keyId: input.keyId ?? '', algorithm: input.algorithm ?? 'PS256' }
        : { method: input.authMethod },
    scopes: input.scopes,
    ...(input.softwareProductId ? { softwareProductId: input.softwareProductId } : {}),
    ...(input.redirectUri ? { redirectUri: input.redirectUri } : {}),
  };
  const parsed = Profile.safeParse(candidate);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new CoreError('INVALID_INPUT', `The profile is not valid: ${issue.path.join('.') || 'profile'}: ${issue.message}`);
  }
  const profile = parsed.data;
  const name = credentialName(profile);
  if (!input.secret && !vault.has(name)) {
    throw new CoreError(
      'INVALID_INPUT',
      profile.clientAuth.method === 'private_key_jwt'
        ? 'Give the private key (PEM) of this profile.'
        : 'Give the client secret of this profile.',
    );
  }
  if (input.secret) {
    if (profile.clientAuth.method === 'private_key_jwt' && !/-----BEGIN (EC |RSA )?PRIVATE KEY-----/.test(input.secret))
      throw new CoreError('INVALID_INPUT', 'The private key must be a PEM (PKCS#8) block: -----BEGIN PRIVATE KEY----- …');
    vault.set(name, input.secret);
  }
  writeProfiles(dataDir, {
    ...file,
    profiles: [...file.profiles.filter((p) => p.id !== profile.id), profile],
    ...(input.makeDefault ? { defaultProfileId: profile.id } : {}),
  });
}

export function removeProfile(dataDir: string, vault: SecretVault, id: string, currentId: string): void {
  const file = loadProfiles(dataDir);
  const profile = file.profiles.find((p) => p.id === id);
  if (!profile) throw new CoreError('NOT_FOUND', `There is no profile "${id}".`);
  if (profile.embedded) throw new CoreError('INVALID_INPUT', 'The embedded sandbox profile cannot be removed.');
  if (id === currentId) throw new CoreError('INVALID_INPUT', 'This profile is open: switch to another one before removing it.');
  const rest = file.profiles.filter((p) => p.id !== id);
  writeProfiles(dataDir, { ...file, profiles: rest, defaultProfileId: file.defaultProfileId === id ? rest[0]!.id : file.defaultProfileId });
  vault.delete(credentialName(profile));
}
