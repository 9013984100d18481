/** The console's screens, in navigation order. Later issues fill in the placeholders. */
export interface ScreenInfo {
  path: string;
  label: string;
  /** What the screen is for, shown until it is built. */
  purpose: string;
}

export const SCREENS: readonly ScreenInfo[] = [
  { path: '/overview', label: 'Overview', purpose: 'Consents by status, what needs attention, webhook failures, the last sync.' },
  { path: '/consents', label: 'Consents', purpose: 'Every consent in the cache: find, filter, open, revoke.' },
  { path: '/events', label: 'Events', purpose: 'The consent event timeline: grants, extensions, revocations, expiries, notifications.' },
  {
    path: '/webhook-failures',
    label: 'Webhook failures',
    purpose: 'Failed webhook deliveries with the target’s response, grouped for triage.',
  },
  { path: '/use-cases', label: 'Use cases', purpose: 'Use cases with their scopes, durations and data holders.' },
  {
    path: '/data',
    label: 'Data',
    purpose: 'Cached customer data per consent: accounts, balances, transactions, payees, payments, energy.',
  },
  { path: '/products', label: 'Products', purpose: 'Banking products and account fees and rates in the normalised Data API 2.0.0 form.' },
  { path: '/audit', label: 'Audit', purpose: 'The hash-chained log of what operators did, with verification and export.' },
  {
    path: '/complaints',
    label: 'Complaints',
    purpose: 'The complaints register (CDR rule 9.3): what consumers complained about, against which consent, and how it ended.',
  },
  {
    path: '/reports',
    label: 'Compliance reports',
    purpose: 'Counts for the CDR reports and records (rules 9.3, 9.4) for a period, with their records and an export.',
  },
  { path: '/users', label: 'Users', purpose: 'Who may sign in to a team server, with which role: add, change, disable, reset passwords.' },
  { path: '/settings', label: 'Settings', purpose: 'Connection profiles, credentials, operator name and retention.' },
];
