/**
 * One glossary: every value the intermediary's APIs send that a person reads (consent statuses,
 * event types, access frequencies, post-usage actions, notification types) in plain words with
 * what it means, and the words of the Consumer Data Right the console uses. The screens show the
 * words (enumText), the help (`?`) lists them, and charts, pills and legends take a value's colour
 * from here, so one meaning has one colour everywhere.
 *
 * Chart colours: Paul Tol's colour-blind-safe "muted" and "bright" hues (https://personal.sron.nl/~pault/),
 * darker in light mode and lighter in dark mode, so that each keeps 3:1 against its background.
 * Successes are cool (blue, green, teal), failures warm (orange, red, wine), neutral things grey.
 */
export interface Term {
  /** The API's value, or the word itself for a concept. */
  value: string;
  words: string;
  meaning: string;
  /** A Mantine colour for the value's pill (Badge). */
  pill?: string;
  /** The value's colour in charts, light and dark. */
  chart?: { light: string; dark: string };
}

/** A value with a colour of its own: statuses and event types. */
export interface ColouredTerm extends Term {
  pill: string;
  chart: { light: string; dark: string };
}

const HUE = {
  blue: { light: '#3a6fb0', dark: '#77aadd' },
  cyan: { light: '#2f7f9e', dark: '#88ccee' },
  green: { light: '#228833', dark: '#66cc77' },
  teal: { light: '#2a8a7c', dark: '#66c2b0' },
  indigo: { light: '#4b3d99', dark: '#a095e0' },
  orange: { light: '#b86e00', dark: '#eeaa44' },
  red: { light: '#c8372d', dark: '#ff7b6e' },
  wine: { light: '#882255', dark: '#dd77aa' },
  purple: { light: '#8f3a85', dark: '#cc88cc' },
  grey: { light: '#6e6e6e', dark: '#aaaaaa' },
  sand: { light: '#8a7a20', dark: '#ddcc77' },
} as const;

export const STATUS_TERMS: readonly ColouredTerm[] = [
  {
    value: 'ACTIVE',
    words: 'Active',
    meaning: 'Granted by the consumer; data may be collected until the sharing end date.',
    pill: 'teal',
    chart: HUE.green,
  },
  {
    value: 'REQUESTED',
    words: 'Requested',
    meaning: 'Created by the recipient; the consumer has not authorised it yet.',
    pill: 'blue',
    chart: HUE.blue,
  },
  {
    value: 'REVOKED',
    words: 'Revoked',
    meaning: 'Withdrawn by the consumer, the data holder or the recipient’s staff; no more data may be collected.',
    pill: 'red',
    chart: HUE.wine,
  },
  {
    value: 'EXPIRED',
    words: 'Expired',
    meaning: 'Its sharing end date passed; no more data may be collected.',
    pill: 'gray',
    chart: HUE.grey,
  },
];

export const EVENT_TERMS: readonly ColouredTerm[] = [
  {
    value: 'GRANTED',
    words: 'Granted',
    meaning: 'The consumer authorised the consent at their data holder.',
    pill: 'teal',
    chart: HUE.green,
  },
  { value: 'EXTENDED', words: 'Extended', meaning: 'The consumer extended the consent’s sharing period.', pill: 'teal', chart: HUE.teal },
  {
    value: 'REVOKED',
    words: 'Revoked',
    meaning: 'The consent was revoked: by the consumer, the data holder or staff.',
    pill: 'grape',
    chart: HUE.purple,
  },
  { value: 'EXPIRED', words: 'Expired', meaning: 'The sharing end date passed.', pill: 'gray', chart: HUE.grey },
  {
    value: 'DATA_COLLECTION_COMPLETED',
    words: 'Data collected',
    meaning: 'The intermediary finished collecting the consumer’s data from the data holder.',
    pill: 'blue',
    chart: HUE.indigo,
  },
  {
    value: 'WEBHOOK_SENT',
    words: 'Webhook delivered',
    meaning: 'The intermediary told the recipient’s webhook about an event, and it answered with success.',
    pill: 'cyan',
    chart: HUE.cyan,
  },
  {
    value: 'WEBHOOK_SENDING_FAILED',
    words: 'Webhook failed',
    meaning: 'A delivery to the recipient’s webhook failed (a server error or no answer); the intermediary retries.',
    pill: 'red',
    chart: HUE.red,
  },
  {
    value: 'WEBHOOK_SENDING_FAILED_CLIENT_ERROR',
    words: 'Webhook refused',
    meaning: 'The recipient’s webhook refused a delivery (a 4xx answer, shown in full): fix the endpoint or its settings.',
    pill: 'orange',
    chart: HUE.orange,
  },
  {
    value: 'WEBHOOK_MAX_RETRIES_REACHED',
    words: 'Webhook retries exhausted',
    meaning: 'The intermediary gave up delivering an event: the recipient never heard of it.',
    pill: 'red',
    chart: HUE.wine,
  },
  {
    value: 'EMAIL_SENT',
    words: 'E-mail sent',
    meaning: 'The intermediary e-mailed the consumer about their consent (a receipt or a reminder).',
    pill: 'gray',
    chart: HUE.sand,
  },
];

const OTHER_TERMS: readonly Term[] = [
  { value: 'ONGOING', words: 'Ongoing', meaning: 'Data is collected again and again while the consent is active.' },
  { value: 'ONCE_OFF', words: 'Once-off', meaning: 'Data is collected once; the consent cannot be extended.' },
  { value: 'DELETION', words: 'Deletion', meaning: 'When the consent ends, the collected data is deleted.' },
  {
    value: 'DE_IDENTIFICATION',
    words: 'De-identification',
    meaning: 'When the consent ends, the collected data is de-identified instead of deleted.',
  },
  { value: 'EMAIL', words: 'E-mail', meaning: 'The consumer is notified by e-mail.' },
  { value: 'SMS', words: 'SMS', meaning: 'The consumer is notified by text message.' },
];

/** Banking product categories (the Data API's productCategory), as a bank's customer says them. */
const PRODUCT_CATEGORIES: readonly Term[] = [
  { value: 'TRANS_AND_SAVINGS_ACCOUNTS', words: 'Transaction and savings accounts', meaning: 'Everyday and savings accounts.' },
  { value: 'TERM_DEPOSITS', words: 'Term deposits', meaning: 'Money deposited for a fixed term at a fixed rate.' },
  { value: 'TRAVEL_CARDS', words: 'Travel cards', meaning: 'Prepaid cards holding foreign currencies.' },
  { value: 'REGULATED_TRUST_ACCOUNTS', words: 'Regulated trust accounts', meaning: 'Accounts a business holds in trust for its clients.' },
  { value: 'RESIDENTIAL_MORTGAGES', words: 'Home loans', meaning: 'Residential mortgages: loans secured by a home.' },
  { value: 'CRED_AND_CHRG_CARDS', words: 'Credit and charge cards', meaning: 'Credit cards, and charge cards paid in full each month.' },
  { value: 'PERS_LOANS', words: 'Personal loans', meaning: 'Unsecured or car loans to a person.' },
  { value: 'MARGIN_LOANS', words: 'Margin loans', meaning: 'Loans secured by shares or managed funds, to invest.' },
  { value: 'LEASES', words: 'Leases', meaning: 'Finance for equipment or vehicles, paid over a term.' },
  { value: 'TRADE_FINANCE', words: 'Trade finance', meaning: 'Finance for importing and exporting.' },
  { value: 'OVERDRAFTS', words: 'Overdrafts', meaning: 'Borrowing beyond an account’s balance, up to a limit.' },
  { value: 'BUSINESS_LOANS', words: 'Business loans', meaning: 'Loans to a business.' },
];

/** The words of the Consumer Data Right, as this console uses them. */
export const CONCEPTS: readonly Term[] = [
  {
    value: 'Consent',
    words: 'Consent',
    meaning: 'A consumer’s permission for the recipient to collect and use named data for a use case, for a period.',
  },
  {
    value: 'Consumer',
    words: 'Consumer',
    meaning: 'The person or business whose data is shared; identified by the intermediary’s consumer id, an e-mail and a mobile.',
  },
  {
    value: 'Data holder',
    words: 'Data holder',
    meaning: 'The bank or energy retailer that holds the consumer’s data and shares it under the consent.',
  },
  {
    value: 'Data recipient',
    words: 'Data recipient',
    meaning: 'Your organisation: accredited to receive CDR data, through the intermediary.',
  },
  {
    value: 'Intermediary',
    words: 'Intermediary',
    meaning: 'The accredited provider whose Consent and Data APIs this console reads and acts through.',
  },
  {
    value: 'Use case',
    words: 'Use case',
    meaning: 'What the data is for, with the scopes it needs, the sharing periods offered and how often data is collected.',
  },
  {
    value: 'CDR arrangement id',
    words: 'CDR arrangement id',
    meaning: 'The data holder’s id for the sharing arrangement behind a consent; it stays the same across amendments.',
  },
  {
    value: 'Sharing end date',
    words: 'Sharing end date',
    meaning: 'When the consent stops allowing data collection, unless it is extended.',
  },
  {
    value: 'Webhook',
    words: 'Webhook',
    meaning: 'Your endpoint the intermediary calls with each consent event; its failures are listed under Webhook failures.',
  },
  {
    value: 'Evidence pack',
    words: 'Evidence pack',
    meaning: 'A ZIP of everything known about one consent, for an auditor, with a SHA-256 manifest.',
  },
  {
    value: 'Retention',
    words: 'Retention',
    meaning: 'The deletion or de-identification of cached data when its consent ends, as its post-usage action says.',
  },
  {
    value: 'Audit log',
    words: 'Audit log',
    meaning: 'Every staff action and export, each entry chained to the one before so that a change is detected.',
  },
];

/** A team server's roles, as the Users screen, the audit log and the help name them. */
export const ROLE_TERMS: readonly Term[] = [
  { value: 'viewer', words: 'Viewer', meaning: 'Sees every screen and the cached data; no exports of customer data, no actions.' },
  {
    value: 'compliance',
    words: 'Compliance',
    meaning: 'As a viewer, plus exports, evidence packs, compliance reports and the audit log’s check.',
  },
  {
    value: 'support',
    words: 'Support',
    meaning: 'As a viewer, plus revoking (one or in bulk), updating, extending, creating and authorising consents.',
  },
  { value: 'admin', words: 'Admin', meaning: 'Everything, plus people, profiles and credentials, the sync schedule and the cache.' },
];

/** How a person signed in to a team server. */
export const SIGN_IN_TERMS: readonly Term[] = [
  { value: 'password', words: 'Password', meaning: 'Signed in with a user name and password the team server keeps (hashed).' },
  {
    value: 'oidc',
    words: 'Single sign-on',
    meaning: 'Signed in through the organisation’s OpenID provider; the role comes from its groups.',
  },
];

export const GLOSSARY_GROUPS: readonly { title: string; terms: readonly Term[] }[] = [
  { title: 'Consent statuses', terms: STATUS_TERMS },
  { title: 'Consent events', terms: EVENT_TERMS },
  { title: 'Collection and after', terms: OTHER_TERMS },
  { title: 'Banking product categories', terms: PRODUCT_CATEGORIES },
  { title: 'Words of the Consumer Data Right', terms: CONCEPTS },
  { title: 'People on a team server', terms: [...ROLE_TERMS, ...SIGN_IN_TERMS] },
];

const ROLES = new Map(ROLE_TERMS.map((t) => [t.value, t]));
const SIGN_INS = new Map(SIGN_IN_TERMS.map((t) => [t.value, t]));

/** A role in words ("Compliance"); an unknown one as it is. */
export const roleText = (role: string): string => ROLES.get(role)?.words ?? role;

/** How a person signed in, in words ("Single sign-on"); an unknown way as it is. */
export const signInText = (method: string): string => SIGN_INS.get(method)?.words ?? method;

const EVENTS = new Map(EVENT_TERMS.map((t) => [t.value, t]));
const STATUSES = new Map(STATUS_TERMS.map((t) => [t.value, t]));
const VALUES = new Map([...OTHER_TERMS, ...PRODUCT_CATEGORIES, ...STATUS_TERMS].map((t) => [t.value, t]));

/** An event type's term; an unknown type (a newer API) gets its own value and a neutral colour. */
export function eventTerm(type: string): ColouredTerm {
  return (
    EVENTS.get(type) ?? {
      value: type,
      words: type,
      meaning: 'A type of event this console does not know yet.',
      pill: 'gray',
      chart: HUE.grey,
    }
  );
}

export function statusTerm(status: string): ColouredTerm | undefined {
  return STATUSES.get(status);
}

/** The plain words of an API value the glossary knows (undefined: not one of them). */
export function glossaryWords(value: string): string | undefined {
  return VALUES.get(value)?.words ?? EVENTS.get(value)?.words;
}

/** A chart series for an event type, coloured by its meaning. */
export function eventSeries(type: string, name = type, label?: string): { name: string; label: string; color: string; darkColor: string } {
  const t = eventTerm(type);
  return { name, label: label ?? t.words, color: t.chart.light, darkColor: t.chart.dark };
}

/** Staff actions in the audit log, as a person says them (the stored value stays on hover and in exports). */
const AUDIT_ACTIONS: Record<string, string> = {
  revoke: 'Revoked a consent',
  update: 'Updated a consent',
  create: 'Created a consent',
  'start-authorization': 'Started an authorisation',
  'complete-authorization': 'Completed an authorisation',
  'export-consents': 'Exported consents',
  'export-events': 'Exported events',
  'export-data': 'Exported customer data',
  'export-products': 'Exported products',
  'export-audit': 'Exported the audit log',
  'export-report': 'Exported a compliance report',
  'export-complaints': 'Exported the complaints register',
  'export-rule94': 'Exported a rule 9.4 report',
  'rule94:made': 'Made a rule 9.4 report',
  'rule94:answer': 'Answered a rule 9.4 report',
  'rule94:recount': 'Counted a rule 9.4 report again',
  'rule94:signoff': 'Signed off a rule 9.4 report',
  'report:schedule': 'Scheduled the monthly compliance pack',
  'report:monthly-pack': 'Made a monthly compliance pack',
  'report:sent': 'E-mailed a report',
  'report:send-failed': 'A report’s e-mail failed',
  'complaint:record': 'Recorded a complaint',
  'complaint:update': 'Changed a complaint',
  'alert:firing': 'An alert fired',
  'alert:resolved': 'An alert resolved',
  'alert:acknowledged': 'Acknowledged an alert',
  'alert:silenced': 'Silenced an alert rule',
  'alert:unsilenced': 'Lifted an alert rule’s silence',
  'alert-rule:add': 'Added an alert rule',
  'alert-rule:remove': 'Removed an alert rule',
  'alert:delivered': 'Sent an alert',
  'alert:delivery-failed': 'Could not send an alert',
  'alert:delivery-set': 'Changed where alerts go',
  'export-results': 'Exported a bulk revocation’s results',
  'evidence-pack': 'Exported an evidence pack',
  'bulk:approval-requested': 'Asked approval for a bulk revocation',
  pause: 'Paused a bulk revocation',
  deleted: 'Deleted cached data',
  'retention:deleted': 'Retention deleted data',
  'retention:de-identified': 'Retention de-identified data',
  'import-audit': 'Imported a solo audit log',
  'audit:keyed': 'Keyed the audit log',
  'operator:changed': 'Changed the operator’s name',
  'settings:changed': 'Changed the settings',
  'sign-in': 'Signed in',
  'sign-in:failed': 'Sign-in failed',
  'sign-in:locked': 'Sign-in locked',
  'sign-out': 'Signed out',
  'user:added': 'Added a person',
  'user:password-reset': 'Reset a password',
  'user:role-changed': 'Changed a role',
  'user:unlocked': 'Unlocked a person',
};

/** An audit action in words; one this console does not know reads as its parts ("job:resumed" → "Job resumed"). */
export function auditActionText(action: string): string {
  const known = AUDIT_ACTIONS[action];
  if (known) return known;
  const words = action.replace(/[:_]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Units of measure as they are written ("KWH" → "kWh"); another as a word ("DOLLAR" → "Dollar"). */
const UNITS: Record<string, string> = {
  KWH: 'kWh',
  WH: 'Wh',
  MWH: 'MWh',
  KW: 'kW',
  KVA: 'kVA',
  KVAH: 'kVAh',
  KVAR: 'kvar',
  KVARH: 'kvarh',
  GJ: 'GJ',
  MJ: 'MJ',
  L: 'L',
  M3: 'm³',
};

export function unitText(unit: string | null | undefined): string {
  if (!unit) return '';
  const known = UNITS[unit.toUpperCase()];
  if (known) return known;
  // A word such as DOLLAR or MONTH: as a word ("Dollar").
  const words = unit.toLowerCase().replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
