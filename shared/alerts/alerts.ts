/**
 * Alert rules (issue 38): what the console watches for, in words and limits the contract, the
 * evaluator and the Settings form share. Kept free of zod: the renderer's form reads it.
 */
export const ALERT_KINDS = [
  'webhook-failures',
  'max-retries',
  'expiring-consents',
  'withdrawal-spike',
  'sync-stale',
  'audit-chain',
  'report-unsigned',
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** The kinds that count events of consents, and so may watch one data holder's consents instead of all. */
export const HOLDER_KINDS: readonly AlertKind[] = ['webhook-failures', 'max-retries', 'withdrawal-spike'];

/** What each kind takes; every number is a whole number. */
export interface AlertParams {
  /** The window counted back from now (minutes): webhook failures, max retries, withdrawals. */
  windowMinutes?: number;
  /** Fires at this many (failures, withdrawals) in the window, or more. */
  atLeast?: number;
  /** Webhook failures: also fires when this share (%) of deliveries in the window failed, with at least `atLeast` failures. */
  ratePercent?: number;
  /** Expiring consents: sharing ends within this many days (a daily digest). */
  withinDays?: number;
  /** Sync: the last good sync is older than this many hours (or the last one failed). */
  hours?: number;
  /** One data holder's consents only (HOLDER_KINDS); absent: every data holder's. Its name as when the rule was added. */
  dataHolder?: { id: string; name: string };
}

/** The rule's kind in words, and the data holder it watches: "Webhook deliveries failing at ANZ". */
export function ruleTitle(kind: AlertKind, p: AlertParams): string {
  return p.dataHolder ? `${KIND_TEXT[kind]} at ${p.dataHolder.name}` : KIND_TEXT[kind];
}

export const KIND_TEXT: Record<AlertKind, string> = {
  'webhook-failures': 'Webhook deliveries failing',
  'max-retries': 'Webhook deliveries that reached max retries',
  'expiring-consents': 'Consents expiring soon (daily digest)',
  'withdrawal-spike': 'Consumer withdrawals spiking',
  'sync-stale': 'Sync stale or failing',
  'audit-chain': 'Audit chain failing verification',
  'report-unsigned': 'Rule 9.4 report waiting for sign-off',
};

/** The numbers a rule takes. */
export type NumericParam = Exclude<keyof AlertParams, 'dataHolder'>;

/** The parameters each kind needs, with their bounds; a kind's defaults are a new rule's. */
export const KIND_PARAMS: Record<AlertKind, { [K in NumericParam]?: { min: number; max: number; default: number; label: string } }> = {
  'webhook-failures': {
    windowMinutes: { min: 5, max: 10_080, default: 60, label: 'Window (minutes)' },
    atLeast: { min: 1, max: 1_000_000, default: 5, label: 'At least this many failures' },
    ratePercent: { min: 1, max: 100, default: 20, label: 'Or this share of deliveries failing (%)' },
  },
  'max-retries': {
    windowMinutes: { min: 5, max: 10_080, default: 60, label: 'Window (minutes)' },
    atLeast: { min: 1, max: 1_000_000, default: 1, label: 'At least this many deliveries' },
  },
  'expiring-consents': { withinDays: { min: 1, max: 90, default: 7, label: 'Sharing ends within (days)' } },
  'withdrawal-spike': {
    windowMinutes: { min: 5, max: 10_080, default: 60, label: 'Window (minutes)' },
    atLeast: { min: 1, max: 1_000_000, default: 20, label: 'At least this many withdrawals' },
  },
  'sync-stale': { hours: { min: 1, max: 720, default: 6, label: 'No good sync for (hours)' } },
  'audit-chain': {},
  'report-unsigned': {},
};

/** The kind's parameters, each within its bounds: the defaults for what is missing; null with a reason when one is out of bounds. */
export function paramsOf(
  kind: AlertKind,
  given: { [K in NumericParam]?: number | undefined },
): { params: AlertParams; problem: null } | { params: null; problem: string } {
  const params: AlertParams = {};
  for (const [key, spec] of Object.entries(KIND_PARAMS[kind]) as [
    NumericParam,
    { min: number; max: number; default: number; label: string },
  ][]) {
    const v = given[key] ?? spec.default;
    if (!Number.isInteger(v) || v < spec.min || v > spec.max)
      return { params: null, problem: `${spec.label}: ${v} is outside ${spec.min}–${spec.max}.` };
    params[key] = v;
  }
  return { params, problem: null };
}

/** A rule in a line: "Webhook deliveries failing: 5 or more in 60 minutes, or 20% of deliveries". */
export function ruleText(kind: AlertKind, p: AlertParams): string {
  const win = p.windowMinutes !== undefined ? windowText(p.windowMinutes) : '';
  const title = ruleTitle(kind, p);
  switch (kind) {
    case 'webhook-failures':
      return `${title}: ${p.atLeast} or more in ${win}${p.ratePercent !== undefined ? `, or ${p.ratePercent}% of deliveries` : ''}`;
    case 'max-retries':
      return `${title}: ${p.atLeast} or more in ${win}`;
    case 'expiring-consents':
      return `Consents whose sharing ends within ${p.withinDays} day${p.withinDays === 1 ? '' : 's'} (once a day)`;
    case 'withdrawal-spike':
      return `${title}: ${p.atLeast} or more in ${win}`;
    case 'sync-stale':
      return `${KIND_TEXT[kind]}: no good sync for ${p.hours} hour${p.hours === 1 ? '' : 's'}, or the last one failed`;
    case 'audit-chain':
      return KIND_TEXT[kind];
    case 'report-unsigned':
      return `${KIND_TEXT[kind]} (once a day, until its due day)`;
  }
}

export function windowText(minutes: number): string {
  if (minutes % 1440 === 0) return `${minutes / 1440} day${minutes === 1440 ? '' : 's'}`;
  if (minutes % 60 === 0) return `${minutes / 60} hour${minutes === 60 ? '' : 's'}`;
  return `${minutes} minutes`;
}

/** How often a firing alert is told again while it keeps firing (unless silenced). */
export const REPEAT_HOURS = 4;
