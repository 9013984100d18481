import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyFileCipher } from '../../electron/core/secrets/cipher.js';
import { SecretVault } from '../../electron/core/secrets/vault.js';
import { auditSsoSettings } from '../../electron/team/sso-audit.js';
import { openTeamConsole, signInCookie, startTeamHost, type TeamConsole, type TeamHost } from '../helpers/team-host.js';

/**
 * Every admin change is an audit entry, with before and after, never a secret (issue 35): a rogue
 * admin could lift the two-person rule for bulk revocations, run a large one and put the rule back
 * with no record of the change; profiles, their credentials and the operator's name changed
 * unrecorded too.
 */
let team: TeamHost;
let ada: TeamConsole;

beforeAll(async () => {
  team = await startTeamHost({ users: [['ada', 'Ada Admin', 'admin']], consents: 10 });
  ada = await openTeamConsole(team, await signInCookie(team, 'ada'));
}, 120_000);
afterAll(() => team?.close());

const last = async (action: string) => (await team.core.stores.audit.entries()).filter((e) => e.action === action).at(-1);

describe('an admin’s changes, audited', () => {
  it('the approval rule and the sync schedule, before and after, under the admin', async () => {
    expect((await ada.call('settings:set', { bulkApprovalOver: 10_000, syncEveryMinutes: 0 })).ok).toBe(true);
    expect(await last('settings:changed')).toMatchObject({
      operator: 'ada (Ada Admin)',
      target: 'settings',
      result: 'syncEveryMinutes 15 → 0; bulkApprovalOver 50 → 10000',
      person: { displayName: 'Ada Admin', role: 'admin' },
    });
    await ada.call('settings:set', { bulkApprovalOver: 50 });
    expect((await last('settings:changed'))?.result).toBe('bulkApprovalOver 10000 → 50');
    // A person's own view (the theme) is not an admin change.
    const before = (await team.core.stores.audit.entries()).length;
    await ada.call('settings:set', { theme: 'dark' });
    expect((await team.core.stores.audit.entries()).length).toBe(before);
  });

  it('a profile added, changed and removed; its credential named by a fingerprint, never itself', async () => {
    const profile = {
      id: 'uat',
      name: 'Intermediary UAT',
      environment: 'nonprod',
      consentApiBaseUrl: 'https://uat.example.com/api',
      tokenUrl: 'https://uat.example.com/token',
      clientId: 'client-1',
      authMethod: 'client_secret_basic',
      scopes: ['consents:read'],
      secret: 'the first client secret',
    };
    expect((await ada.call('profiles:save', profile)).ok).toBe(true);
    const added = await last('profile:added');
    expect(added).toMatchObject({ operator: 'ada (Ada Admin)', target: 'profile:uat' });
    expect(added!.result).toMatch(/^name \(none\) → Intermediary UAT; .*the credential changed \(fingerprint hmac-sha256:[0-9a-f]{16}\)$/);
    const first = /fingerprint (\S+)\)/.exec(added!.result)![1];
    expect((await ada.call('profiles:save', { ...profile, clientId: 'client-2', secret: 'the second client secret' })).ok).toBe(true);
    const changed = await last('profile:changed');
    expect(changed!.result).toMatch(/^clientId client-1 → client-2; the credential changed \(fingerprint hmac-sha256:[0-9a-f]{16}\)$/);
    expect(changed!.result).not.toContain(first);
    const all = JSON.stringify(await team.core.stores.audit.entries());
    expect(all).not.toContain('client secret');
    expect((await ada.call('profiles:remove', { id: 'uat' })).ok).toBe(true);
    expect(await last('profile:removed')).toMatchObject({ target: 'profile:uat', result: /^Intermediary UAT \(nonprod\)/ });
  });

  it('single sign-on’s settings, compared at each start: set, changed (the secret by its fingerprint), removed', async () => {
    const vault = new SecretVault(team.dataDir, createKeyFileCipher(team.dataDir));
    const sso = {
      issuer: 'https://id.example.com',
      clientId: 'cdr-console',
      roleClaim: 'groups',
      groupRoles: { 'cdr-admin': 'admin' },
      scopes: ['openid', 'profile', 'email', 'groups'],
      secret: 'the client secret',
    };
    expect(await auditSsoSettings(team.core.stores, vault, sso)).toBe(true);
    expect(await last('sso:configured')).toMatchObject({
      target: 'sso',
      result: expect.stringMatching(
        /^issuer https:\/\/id\.example\.com; client cdr-console; .*groups cdr-admin=admin; secret hmac-sha256:[0-9a-f]{16}$/,
      ) as string,
    });
    expect(await auditSsoSettings(team.core.stores, vault, sso)).toBe(false); // a restart with the same settings
    expect(
      await auditSsoSettings(team.core.stores, vault, {
        ...sso,
        groupRoles: { 'cdr-admin': 'admin', everyone: 'support' },
        secret: 'another',
      }),
    ).toBe(true);
    const changed = (await last('sso:changed'))!.result;
    expect(changed).toMatch(
      /groups cdr-admin=admin; secret hmac-sha256:[0-9a-f]{16} → .*groups cdr-admin=admin,everyone=support; secret hmac-sha256:[0-9a-f]{16}$/,
    );
    expect(changed).not.toContain('another');
    expect(await auditSsoSettings(team.core.stores, vault, undefined)).toBe(true);
    expect((await last('sso:removed'))!.result).toMatch(/^single sign-on turned off \(was: issuer https:/);
  });

  it('the operator’s name', async () => {
    expect((await ada.call('operator:set', { displayName: 'Night Shift' })).ok).toBe(true);
    expect((await last('operator:changed'))?.result).toMatch(/ → Night Shift$/);
  });
});
