import { createHmac } from 'node:crypto';
import { PERSONAL_SETTINGS, type Settings } from '../../../shared/ipc/contract.js';
import { CoreError } from '../errors.js';
import { testConnection } from '../api/connection-test.js';
import { createClientCredentialsTokenSource, type TokenSource } from '../auth/token-source.js';
import { profileSummaries, removeProfile, saveProfile } from '../config/profile-store.js';
import { loadProfiles, pickProfile, type Profile } from '../config/profiles.js';
import { storedCredential, tokenOptionsOf } from '../connection.js';
import type { CoreContext, HandlersOf, Reachability } from '../context.js';
import type { OperatorStore } from '../operator.js';
import type { SecretVault } from '../secrets/vault.js';
import { DEFAULT_SETTINGS, type SettingsStore } from '../settings.js';
import { currentCaller } from '../../ipc/request-context.js';

type ProfileChannels =
  | 'settings:get'
  | 'settings:set'
  | 'profiles:list'
  | 'profiles:save'
  | 'profiles:remove'
  | 'profiles:switch'
  | 'profiles:test'
  | 'cache:reset'
  | 'operator:get'
  | 'operator:set';

export interface ProfilesContext extends Pick<CoreContext, 'log' | 'stores' | 'operator'> {
  dataDir: string;
  vault: SecretVault;
  settings: SettingsStore;
  operators: OperatorStore;
  /** The profile this console has open, and how it reaches its intermediary. */
  current: { profile: Profile; tokens: TokenSource; baseUrl: string; tokenUrl: string };
  intermediary: Reachability;
  /** A secret for a non-embedded profile whose vault has none (this run's environment). */
  clientSecret?: string | undefined;
  /** Reopens the console on another profile or a new cache; absent where the host cannot (the command line). */
  reopen?: ((change: { profileId?: string; resetCache?: boolean }) => void) | undefined;
  /**
   * A team server: every server of the team serves one profile into one shared store, so no console
   * switches the profile or resets the store under the others.
   */
  team?: boolean | undefined;
  /** Settings that change when the console syncs. */
  onScheduleChange: () => void;
  /**
   * A team server's people: each person's own view settings (theme, columns, saved views), kept
   * per person rather than in the server's file, so nobody changes another's view (issue 35).
   */
  personal?: {
    viewSettings(userId: string): Promise<Partial<Settings>>;
    saveViewSettings(userId: string, change: Partial<Settings>): Promise<Partial<Settings>>;
  };
}

/** The profiles and settings domain: connection profiles and their credentials, the user's settings, who is at the keyboard. */
export function profileHandlers(ctx: ProfilesContext): HandlersOf<ProfileChannels> {
  const { dataDir, vault } = ctx;
  const current = ctx.current.profile.id;
  /** An admin's change, in the audit log under whoever asked (the request's person). */
  const audited = (action: string, target: string, result: string) =>
    ctx.stores.audit.append({ operator: ctx.operator(), action, target, reason: null, result });
  const fingerprint = (secret: string) => credentialFingerprint(vault, secret);
  /** A profile the renderer names: one that does not exist is NOT_FOUND (the renderer's mistake), not an internal error. */
  const profileById = (id: string): Profile => {
    const file = loadProfiles(dataDir);
    if (!file.profiles.some((p) => p.id === id)) throw new CoreError('NOT_FOUND', `There is no profile "${id}".`);
    return pickProfile(file, id);
  };
  /** The host that can swap cores, or a clear refusal where it cannot (the command line). */
  const reopener = (refusal: string, onTeam: string) => {
    if (ctx.team) throw new CoreError('INVALID_INPUT', onTeam);
    if (!ctx.reopen) throw new CoreError('INVALID_INPUT', refusal);
    const run = ctx.reopen;
    return (change: { profileId?: string; resetCache?: boolean }) => {
      setImmediate(() => run(change));
      return { switching: true as const };
    };
  };
  return {
    'settings:get': async () => {
      const shared = ctx.settings.get();
      const person = ctx.personal ? currentCaller() : undefined;
      // A person on a team server sees their own view (the defaults until they save one), not what
      // anyone else chose.
      return person ? { ...shared, ...PERSONAL_DEFAULTS, ...(await ctx.personal!.viewSettings(person.userId)) } : shared;
    },
    'settings:set': async (change) => {
      const given = Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined)) as Partial<Settings>;
      const person = ctx.personal ? currentCaller() : undefined;
      const own = person ? pick(given, PERSONAL) : {};
      const shared = person ? omit(given, PERSONAL) : given;
      if (person && Object.keys(own).length) await ctx.personal!.saveViewSettings(person.userId, own);
      if (Object.keys(shared).length) {
        const before = ctx.settings.get();
        const next = ctx.settings.set(shared);
        if (change.syncEveryMinutes !== undefined || change.syncData !== undefined) ctx.onScheduleChange();
        // What the server does for everyone (the sync schedule, the approval rule) and the views
        // shared with the team are on the record.
        const changed = describeChanges(viewNames(before), viewNames(next), [...SHARED_SETTINGS, 'teamViews']);
        if (changed) await audited('settings:changed', 'settings', changed);
      }
      return person
        ? { ...ctx.settings.get(), ...PERSONAL_DEFAULTS, ...(await ctx.personal!.viewSettings(person.userId)) }
        : ctx.settings.get();
    },
    'profiles:list': async () => profileSummaries(dataDir, vault, current),
    'profiles:save': async (input) => {
      const before = profileSummaries(dataDir, vault, current).find((p) => p.id === input.id);
      saveProfile(dataDir, vault, input);
      ctx.log.info(`profile ${input.id} saved${input.secret ? ' with a new credential' : ''}`); // never the secret itself
      const after = profileSummaries(dataDir, vault, current);
      const saved = after.find((p) => p.id === input.id)!;
      const fields = describeChanges(before ?? {}, saved, PROFILE_FIELDS);
      const credential = input.secret ? `the credential changed (fingerprint ${fingerprint(input.secret)})` : null;
      await audited(
        before ? 'profile:changed' : 'profile:added',
        `profile:${input.id}`,
        [fields, credential].filter(Boolean).join('; ') || 'saved unchanged',
      );
      return after;
    },
    'profiles:remove': async ({ id }) => {
      const before = profileSummaries(dataDir, vault, current).find((p) => p.id === id);
      removeProfile(dataDir, vault, id, current);
      await audited(
        'profile:removed',
        `profile:${id}`,
        before ? `${before.name} (${before.environment}), its credential removed from the vault` : 'removed',
      );
      return profileSummaries(dataDir, vault, current);
    },
    'profiles:switch': async ({ id }) => {
      const reopen = reopener(
        'This host cannot switch profiles while it runs: restart it with --profile.',
        'A team server serves one profile to the whole team, into one shared store: restart every server of the team with --profile to change it.',
      );
      const target = profileById(id);
      if (!target.embedded) storedCredential(target, vault, ctx.clientSecret); // says which credential is missing, before anything closes
      return reopen({ profileId: id });
    },
    'cache:reset': async () =>
      reopener(
        'Reset the cache from the command line here: npm run -s cli -- cache reset.',
        "The team's store is the team's PostgreSQL database, shared by every server: it is not reset from a console.",
      )({ resetCache: true }),
    'profiles:test': async ({ id }) => {
      if (id && id !== current) {
        // Another profile, before switching to it: its own token source, nothing else of it opened.
        const other = profileById(id);
        if (other.embedded) throw new CoreError('INVALID_INPUT', 'The embedded sandbox is tested by opening it.');
        const otherTokens = createClientCredentialsTokenSource(
          tokenOptionsOf(other, other.tokenUrl!, storedCredential(other, vault, ctx.clientSecret)),
        );
        return testConnection(otherTokens, other.consentApiBaseUrl!, other.tokenUrl!);
      }
      const result = await testConnection(ctx.current.tokens, ctx.current.baseUrl, ctx.current.tokenUrl);
      ctx.intermediary.online = result.ok;
      return result;
    },
    'operator:get': async () => ctx.operators.get(),
    'operator:set': async ({ displayName }) => {
      const before = ctx.operators.get().displayName;
      const after = ctx.operators.setDisplayName(displayName);
      if (before !== after.displayName)
        await audited('operator:changed', 'operator', `${before ?? '(none)'} → ${after.displayName ?? '(none)'}`);
      return after;
    },
  };
}

/** A person's own view: on a team server kept per person (ProfilesContext.personal). */
const PERSONAL = PERSONAL_SETTINGS;
const PERSONAL_DEFAULTS: Pick<Settings, (typeof PERSONAL)[number]> = {
  theme: DEFAULT_SETTINGS.theme,
  consentColumns: DEFAULT_SETTINGS.consentColumns,
  savedViews: [],
  navCollapsed: DEFAULT_SETTINGS.navCollapsed,
  timeZone: DEFAULT_SETTINGS.timeZone,
};
const pick = <T extends object, K extends keyof T>(o: T, keys: readonly K[]): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([k]) => (keys as readonly string[]).includes(k))) as Partial<T>;
const omit = <T extends object, K extends keyof T>(o: T, keys: readonly K[]): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([k]) => !(keys as readonly string[]).includes(k))) as Partial<T>;
/** The team's views by their names, for the audit entry of a change. */
const viewNames = (s: Settings) => ({ ...s, teamViews: s.teamViews.map((v) => `“${v.name}”`) });

/** The settings that are the server's, not a person's view: their changes are audited. */
const SHARED_SETTINGS = ['syncEveryMinutes', 'syncData', 'bulkApprovalOver'] as const satisfies readonly (keyof Settings)[];
/** A profile's fields an audit entry names when they change (never its secret: a fingerprint of it). */
const PROFILE_FIELDS = [
  'name',
  'environment',
  'consentApiBaseUrl',
  'dataApiBaseUrl',
  'tokenUrl',
  'clientId',
  'authMethod',
  'keyId',
  'algorithm',
  'scopes',
  'softwareProductId',
  'redirectUri',
  'isDefault',
] as const;

/** "bulkApprovalOver 50 → 10000; syncData false → true", or '' when none of `keys` changed. */
export function describeChanges<K extends string>(
  before: Partial<Record<K, unknown>>,
  after: Partial<Record<K, unknown>>,
  keys: readonly K[],
): string {
  const text = (v: unknown) => (v === undefined || v === null ? '(none)' : Array.isArray(v) ? v.join(' ') || '(none)' : String(v));
  return keys
    .filter((k) => text(before[k]) !== text(after[k]))
    .map((k) => `${k} ${text(before[k])} → ${text(after[k])}`)
    .join('; ');
}

/**
 * A credential's fingerprint for the audit log: HMAC-SHA-256 under a key of the vault's own, so it
 * tells two credentials apart (and the same one again) without letting anyone who reads the log test
 * guesses of a weak secret against it.
 */
export function credentialFingerprint(vault: SecretVault, secret: string): string {
  const key = vault.getOrCreate(FINGERPRINT_KEY);
  return `hmac-sha256:${createHmac('sha256', key).update(secret).digest('hex').slice(0, 16)}`;
}
const FINGERPRINT_KEY = 'audit-fingerprint-key';
