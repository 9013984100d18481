import * as z from 'zod';
import { ALERT_KINDS } from '../../alerts/alerts.js';
import { ADMIN, COMPLIANCE, EVERYONE, STAFF } from '../roles.js';
import { Empty, type ChannelSchema } from './common.js';

/** Alert rules and the alerts they raise (issue 38; shared/alerts/alerts.ts holds their words and limits). */

const Count = z.number().int();
export const AlertParams = z.strictObject({
  windowMinutes: Count.optional(),
  atLeast: Count.optional(),
  ratePercent: Count.optional(),
  withinDays: Count.optional(),
  hours: Count.optional(),
  /** One data holder's consents only (the kinds that count events); absent: every data holder's. */
  dataHolder: z.strictObject({ id: z.string().min(1).max(200), name: z.string().max(200) }).optional(),
});

export const AlertRule = z.object({
  id: z.string(),
  kind: z.enum(ALERT_KINDS),
  params: AlertParams,
  enabled: z.boolean(),
  /** The rule in a line ("Webhook deliveries failing: 5 or more in 1 hour, or 20% of deliveries"). */
  text: z.string(),
  silencedUntil: z.string().nullable(),
  silenceReason: z.string().nullable(),
  silencedBy: z.string().nullable(),
  /** Whether the silence holds now. */
  silenced: z.boolean(),
  createdAt: z.string(),
  createdBy: z.string(),
});
export type AlertRuleView = z.infer<typeof AlertRule>;

export const Alert = z.object({
  id: z.string(),
  ruleId: z.string(),
  /** The rule's kind in words, and the rule in a line. */
  title: z.string(),
  rule: z.string(),
  state: z.enum(['firing', 'resolved']),
  summary: z.string(),
  firstAt: z.string(),
  lastAt: z.string(),
  resolvedAt: z.string().nullable(),
  acknowledgedBy: z.string().nullable(),
  acknowledgedAt: z.string().nullable(),
  /** Whether its rule is silenced now (its messages held back). */
  silenced: z.boolean(),
  /** Not read by the person asking since it fired or, resolved, since it resolved (each person's own). */
  unread: z.boolean(),
});
export type AlertView = z.infer<typeof Alert>;

/** Where alerts go besides the notification centre (the secrets never come back: only whether one is kept). */
export const AlertDelivery = z.object({
  email: z.object({ smtpUrl: z.string(), from: z.string(), to: z.array(z.string()), hasPassword: z.boolean() }).nullable(),
  webhook: z.object({ url: z.string(), hasSecret: z.boolean() }).nullable(),
  consoleUrl: z.string().nullable(),
});
export type AlertDelivery = z.infer<typeof AlertDelivery>;

const Address = z.email().max(254);
const HttpUrl = z.url({ protocol: /^https?$/ }).max(2000);

export const alertsChannels = {
  'alerts:list': {
    reads: ['alerts'],
    roles: EVERYONE,
    action: 'Reading alerts',
    input: z.strictObject({ limit: z.number().int().min(1).max(500).default(100) }),
    /** `unread`: the alerts the person asking has not read (the bell's count); `attention`: firing alerts nobody has acknowledged. */
    output: z.object({ alerts: z.array(Alert), unread: Count, attention: Count }),
  },
  'alerts:markRead': {
    roles: EVERYONE,
    action: 'Marking alerts read',
    changes: true,
    /** The alerts the person asking has now read (in the notification centre); each person's own, not audited. */
    input: z.strictObject({ ids: z.array(z.string().max(100)).min(1).max(500) }),
    output: z.object({ marked: Count }),
  },
  'alerts:acknowledge': {
    roles: EVERYONE,
    action: 'Acknowledging an alert',
    changes: true,
    input: z.strictObject({ id: z.string().max(100) }),
    output: Alert,
  },
  'alerts:rules': { reads: ['alerts'], roles: EVERYONE, action: 'Reading alert rules', input: Empty, output: z.array(AlertRule) },
  'alerts:addRule': {
    roles: COMPLIANCE,
    action: 'Adding an alert rule',
    /** `dataHolderBrandId`: watch one data holder's consents (its name is the console's); `params.dataHolder` is not taken. */
    input: z.strictObject({
      kind: z.enum(ALERT_KINDS),
      params: AlertParams.omit({ dataHolder: true }).default({}),
      dataHolderBrandId: z.string().min(1).max(200).optional(),
      enabled: z.boolean().default(true),
    }),
    output: AlertRule,
  },
  'alerts:removeRule': {
    roles: COMPLIANCE,
    action: 'Removing an alert rule',
    input: z.strictObject({ id: z.string().max(100) }),
    output: z.object({ removed: z.boolean() }),
  },
  'alerts:silence': {
    roles: STAFF,
    action: 'Silencing an alert rule',
    /** `minutes` null lifts the silence. */
    input: z.strictObject({
      id: z.string().max(100),
      minutes: z.number().int().min(5).max(43_200).nullable(),
      reason: z.string().trim().max(500).nullable(),
    }),
    output: AlertRule,
  },
  'alerts:delivery': { reads: ['alerts'], roles: EVERYONE, action: 'Reading where alerts go', input: Empty, output: AlertDelivery },
  'alerts:setDelivery': {
    roles: ADMIN,
    action: 'Changing where alerts go',
    input: z.strictObject({
      /** `smtpUrl`: smtp:// or smtps://, a password in it is moved to the vault; null turns e-mail off. */
      email: z
        .strictObject({ smtpUrl: z.url({ protocol: /^smtps?$/ }).max(2000), from: Address, to: z.array(Address).min(1).max(20) })
        .nullable()
        .optional(),
      /** `secret`: the Standard Webhooks signing secret (whsec_…); absent keeps the one kept, null removes it. */
      webhook: z
        .strictObject({
          url: HttpUrl,
          secret: z
            .string()
            .regex(/^whsec_[A-Za-z0-9+/=]{16,200}$/)
            .nullable()
            .optional(),
        })
        .nullable()
        .optional(),
      consoleUrl: HttpUrl.nullable().optional(),
    }),
    output: AlertDelivery,
  },
  'alerts:testDelivery': {
    roles: COMPLIANCE,
    action: 'Sending a test alert',
    input: z.strictObject({ way: z.enum(['email', 'webhook']) }),
    output: z.object({ ok: z.boolean(), detail: z.string() }),
  },
  'alerts:evaluate': {
    roles: COMPLIANCE,
    action: 'Evaluating the alert rules',
    input: Empty,
    /** What each rule's evaluation did to its alert. */
    output: z.array(
      z.object({
        ruleId: z.string(),
        /** `failed`: the rule could not be checked (its summary says why); the others were. */
        outcome: z.enum(['opened', 'repeated', 'updated', 'resolved', 'none', 'failed']),
        summary: z.string().nullable(),
      }),
    ),
  },
} as const satisfies Record<string, ChannelSchema>;
