import * as z from 'zod';
import { Empty, TimeZone, type ChannelSchema } from './common.js';
import { ADMIN, EVERYONE } from '../roles.js';
import { CONSENT_SORT_FIELDS, ConsentFilter, ConsentSort, ConsentSortField } from './consents.js';

/** What the console remembers for its user across restarts (not CDR data). */

export const SavedView = z.strictObject({
  name: z.string().min(1).max(80),
  filter: ConsentFilter,
  sort: ConsentSort,
  columns: z.array(ConsentSortField).min(1).max(CONSENT_SORT_FIELDS.length),
});
export type SavedView = z.infer<typeof SavedView>;
export const ThemePreference = z.enum(['auto', 'light', 'dark']);
export const Settings = z.strictObject({
  theme: ThemePreference,
  /** Minutes between scheduled syncs; 0: never (only Sync now). */
  syncEveryMinutes: z.number().int().min(0).max(1440),
  /** Whether syncs also fetch Data API records (accounts, transactions…) of active consents. */
  syncData: z.boolean(),
  /**
   * A bulk revocation of more than this many consents asked by a signed-in person (a team server)
   * waits for a second person's approval (support or admin) before it starts.
   */
  bulkApprovalOver: z.number().int().min(1).max(10_000),
  consentColumns: z.array(ConsentSortField).min(1).max(CONSENT_SORT_FIELDS.length),
  /** Whether the list of screens beside the page is folded away (narrow windows), each person's own. */
  navCollapsed: z.boolean(),
  /**
   * The time zone every date is read in (days, periods, exports), each person's own: null follows
   * the machine's (shared/time/zone.ts).
   */
  timeZone: TimeZone.nullable(),
  /** The person's own saved views (on a team server, each person's: issue 35). */
  savedViews: z.array(SavedView).max(100),
  /** Views an admin shares with the whole team, shown to everyone beside their own (audited). */
  teamViews: z.array(SavedView).max(100),
});
export type Settings = z.infer<typeof Settings>;

/** The settings that are each person's own view (on a team server kept per person; the rest are the server's). */
export const PERSONAL_SETTINGS = [
  'theme',
  'consentColumns',
  'savedViews',
  'navCollapsed',
  'timeZone',
] as const satisfies readonly (keyof Settings)[];
/** What a person saved of their own view, each field checked (one no longer valid is dropped, not the rest). */
export const PersonalSettings = Settings.pick({ theme: true, consentColumns: true, savedViews: true, navCollapsed: true, timeZone: true });

export const settingsChannels = {
  'settings:get': { reads: [], roles: EVERYONE, action: 'Reading the settings', input: Empty, output: Settings },
  'settings:set': {
    // The theme, the time zone, the consent list's columns, saved views and the folded sidebar: each person's own (on a team server,
    // kept per person). What the server does for everybody (how often it syncs, whether it fetches
    // Data API records, the approval rule) and the views shared with the team are an admin's.
    roles: EVERYONE,
    action: 'Changing the settings',
    changes: true,
    fields: {
      syncEveryMinutes: { roles: ADMIN, action: 'Changing the sync schedule' },
      syncData: { roles: ADMIN, action: 'Changing whether Data API records are synced' },
      bulkApprovalOver: { roles: ADMIN, action: 'Changing when bulk revocations need approval' },
      teamViews: { roles: ADMIN, action: 'Sharing views with the team' },
    },
    input: Settings.partial().strict(),
    output: Settings,
  },
} as const satisfies Record<string, ChannelSchema>;
