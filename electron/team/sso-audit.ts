import type { AuditStore } from '../core/audit/port.js';
import { credentialFingerprint } from '../core/profiles/handlers.js';
import type { SecretVault } from '../core/secrets/vault.js';
import type { SyncStateStore } from '../core/sync/port.js';

/** The single sign-on settings a team server starts with (its flags and the vault's secret). */
export interface SsoSettingsSeen {
  issuer: string;
  clientId: string;
  roleClaim: string;
  groupRoles: Record<string, string>;
  scopes: string[];
  secret: string | undefined;
}

const KEY = 'sso-settings';

/**
 * Single sign-on's settings are an admin's change like any other (issue 35), though they are the
 * server's flags and the vault's secret, not a console's channel: at each start a server compares
 * them with what the team's store last recorded, and writes an audit entry when they changed
 * (set, changed, removed), the secret by its fingerprint only.
 */
export async function auditSsoSettings(
  stores: { audit: AuditStore; syncState: SyncStateStore },
  vault: SecretVault,
  sso: SsoSettingsSeen | undefined,
): Promise<boolean> {
  const now = sso
    ? [
        `issuer ${sso.issuer}`,
        `client ${sso.clientId}`,
        `scopes ${sso.scopes.join(' ')}`,
        `role claim ${sso.roleClaim}`,
        `groups ${Object.entries(sso.groupRoles)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([g, r]) => `${g}=${r}`)
          .join(',')}`,
        `secret ${sso.secret ? credentialFingerprint(vault, sso.secret) : '(none: a public client)'}`,
      ].join('; ')
    : '';
  const before = (await stores.syncState.get(KEY)) ?? '';
  if (before === now) return false;
  await stores.audit.append({
    operator: 'CDR Console (server start)',
    action: !now ? 'sso:removed' : before ? 'sso:changed' : 'sso:configured',
    target: 'sso',
    reason: null,
    result: !now ? `single sign-on turned off (was: ${before})` : before ? `${before} → ${now}` : now,
  });
  await stores.syncState.set(KEY, now);
  return true;
}
