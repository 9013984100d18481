import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openCache, type Db } from '../../electron/core/cache/database.js';
import { createKeyFileCipher } from '../../electron/core/secrets/cipher.js';
import { SecretVault, secretNames } from '../../electron/core/secrets/vault.js';

/**
 * Writes a profiles.json whose one (default) profile points at a sandbox (or anything) at `url`:
 * "remote" unless told otherwise; `scopes` written only when given.
 */
export function writeRemoteProfile(
  dataDir: string,
  url: string,
  profile: { id?: string; name?: string; scopes?: readonly string[] } = {},
): void {
  const id = profile.id ?? 'remote';
  writeFileSync(
    join(dataDir, 'profiles.json'),
    JSON.stringify({
      version: 1,
      defaultProfileId: id,
      profiles: [
        {
          id,
          name: profile.name ?? 'Remote',
          environment: 'nonprod',
          consentApiBaseUrl: url,
          tokenUrl: `${url}/oauth2/token`,
          clientId: 'sandbox-client',
          clientAuth: { method: 'client_secret_basic' },
          ...(profile.scopes ? { scopes: profile.scopes } : {}),
        },
      ],
    }),
  );
}

/** Opens the "remote" profile's encrypted cache with its key from the vault, as another process would. */
export function openRemoteCache(dataDir: string): Db {
  const key = new SecretVault(dataDir, createKeyFileCipher(dataDir)).get(secretNames.cacheKey('remote'))!;
  return openCache(join(dataDir, 'profiles', 'remote', 'cache.sqlite'), key);
}
