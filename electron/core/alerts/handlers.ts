import { randomUUID } from 'node:crypto';
import { HOLDER_KINDS, KIND_TEXT, paramsOf, ruleText, ruleTitle, type AlertParams } from '../../../shared/alerts/alerts.js';
import type { AlertRuleView, AlertView } from '../../../shared/ipc/contract.js';
import type { CoreContext, HandlersOf } from '../context.js';
import { CoreError } from '../errors.js';
import type { Alert, AlertRule, AlertStore } from './port.js';
import type { AlertService } from './service.js';
import type { AuditEntry } from '../audit/port.js';
import { SMTP_PASSWORD, WEBHOOK_SECRET, splitSmtpUrl, type Deliverer, type DeliveryConfig } from './delivery.js';

type AlertChannels =
  | 'alerts:list'
  | 'alerts:acknowledge'
  | 'alerts:markRead'
  | 'alerts:rules'
  | 'alerts:addRule'
  | 'alerts:removeRule'
  | 'alerts:silence'
  | 'alerts:evaluate'
  | 'alerts:delivery'
  | 'alerts:setDelivery'
  | 'alerts:testDelivery';

export interface AlertsContext extends Pick<CoreContext, 'clock' | 'operator' | 'stores'> {
  alerts: AlertStore;
  service: AlertService;
  /** Where alerts go: the addresses (a file of the data directory), the secrets (the vault), the deliverer. */
  delivery: {
    read(): DeliveryConfig;
    write(config: DeliveryConfig): void;
    secrets: { has(name: string): boolean; set(name: string, value: string): void; delete(name: string): void };
    deliverer: Deliverer;
    audit(entry: AuditEntry): Promise<unknown>;
  };
}

/** The alerts domain (issue 38): the rules (compliance and admins manage them), the alerts they raise (everyone sees and acknowledges), silences. */
export function alertHandlers(ctx: AlertsContext): HandlersOf<AlertChannels> {
  const store = ctx.alerts;
  const now = () => ctx.clock();
  const rulesById = async () => new Map((await store.rules()).map((r) => [r.id, r]));

  return {
    'alerts:list': async ({ limit }) => {
      const [alerts, rules] = await Promise.all([store.list(limit), rulesById()]);
      const reads = await store.readsOf(
        ctx.operator(),
        alerts.map((a) => a.id),
      );
      const views = alerts.flatMap((a) => {
        const rule = rules.get(a.ruleId);
        return rule ? [alertView(a, rule, now(), reads.get(a.id))] : [];
      });
      return {
        alerts: views,
        unread: views.filter((a) => a.unread).length,
        attention: views.filter((a) => a.state === 'firing' && !a.acknowledgedAt).length,
      };
    },
    'alerts:markRead': async ({ ids }) => ({ marked: await store.markRead(ctx.operator(), ids, now().toISOString()) }),
    'alerts:acknowledge': async ({ id }) => {
      const by = ctx.operator();
      const rules = await rulesById();
      const done = await store.acknowledge(id, by, now().toISOString(), (a) => ({
        operator: by,
        action: 'alert:acknowledged',
        target: null,
        reason: null,
        result: `${titleOf(rules.get(a.ruleId))}: ${a.summary}`,
      }));
      const alert = done ?? (await store.list(500)).find((a) => a.id === id);
      if (!alert) throw new CoreError('NOT_FOUND', 'There is no such alert (its rule may have been removed).');
      const rule = rules.get(alert.ruleId);
      if (!rule) throw new CoreError('NOT_FOUND', 'The alert’s rule was removed.');
      // Acknowledging an alert reads it.
      await store.markRead(by, [alert.id], now().toISOString());
      return alertView(alert, rule, now(), now().toISOString());
    },
    'alerts:rules': async () => (await store.rules()).map((r) => ruleView(r, now())),
    'alerts:addRule': async ({ kind, params: given, dataHolderBrandId, enabled }) => {
      const checked = paramsOf(kind, given);
      if (checked.problem !== null) throw new CoreError('INVALID_INPUT', checked.problem);
      const params: AlertParams = { ...checked.params };
      if (dataHolderBrandId !== undefined) {
        if (!HOLDER_KINDS.includes(kind))
          throw new CoreError('INVALID_INPUT', `“${KIND_TEXT[kind]}” watches the whole console, not one data holder: add it without one.`);
        // A data holder the console knows (the intermediary's list), named as it names it.
        const holder = await ctx.stores.reference.dataHolder(dataHolderBrandId);
        if (!holder)
          throw new CoreError(
            'INVALID_INPUT',
            `No data holder ${dataHolderBrandId} is known to the console: choose one of its list (a sync brings the intermediary's).`,
          );
        params.dataHolder = { id: holder.dataHolderBrandId, name: holder.brandName ?? holder.dataHolderBrandId };
      }
      const by = ctx.operator();
      const at = now().toISOString();
      const rule = await store.addRule(
        { id: randomUUID(), kind, params, enabled, createdAt: at, createdBy: by },
        { operator: by, action: 'alert-rule:add', target: null, reason: null, result: `added: ${ruleText(kind, params)}` },
      );
      return ruleView(rule, now());
    },
    'alerts:removeRule': async ({ id }) => {
      const by = ctx.operator();
      const removed = await store.removeRule(id, (rule) => ({
        operator: by,
        action: 'alert-rule:remove',
        target: null,
        reason: null,
        result: `removed: ${ruleText(rule.kind, rule.params)}`,
      }));
      return { removed };
    },
    'alerts:silence': async ({ id, minutes, reason }) => {
      if (minutes !== null && !reason)
        throw new CoreError('INVALID_INPUT', 'Say why the rule is silenced: the reason is kept in the audit log.');
      const rule = await store.rule(id);
      if (!rule) throw new CoreError('NOT_FOUND', 'There is no such alert rule.');
      const by = ctx.operator();
      const at = now();
      const until = minutes === null ? null : new Date(at.getTime() + minutes * 60_000).toISOString();
      const done = await store.silence(id, until, reason, by, at.toISOString(), {
        operator: by,
        action: until ? 'alert:silenced' : 'alert:unsilenced',
        target: null,
        reason: until ? reason : null,
        result: until
          ? `${ruleText(rule.kind, rule.params)}: silenced until ${until}`
          : `${ruleText(rule.kind, rule.params)}: silence lifted`,
      });
      if (!done) throw new CoreError('NOT_FOUND', 'There is no such alert rule.');
      return ruleView(done, now());
    },
    'alerts:delivery': async () => deliveryView(ctx),
    'alerts:setDelivery': async (input) => {
      const d = ctx.delivery;
      const config = { ...d.read() };
      const changed: string[] = [];
      if (input.email !== undefined) {
        if (input.email === null) {
          config.email = null;
          d.secrets.delete(SMTP_PASSWORD);
          changed.push('e-mail off');
        } else {
          const { url, password } = splitSmtpUrl(input.email.smtpUrl);
          config.email = { smtpUrl: url, from: input.email.from, to: input.email.to };
          if (password !== null) d.secrets.set(SMTP_PASSWORD, password);
          changed.push(
            `e-mail from ${input.email.from} to ${input.email.to.join(', ')} through ${url}${password !== null ? ' (password kept in the vault)' : ''}`,
          );
        }
      }
      if (input.webhook !== undefined) {
        if (input.webhook === null) {
          config.webhook = null;
          d.secrets.delete(WEBHOOK_SECRET);
          changed.push('webhook off');
        } else {
          config.webhook = { url: input.webhook.url };
          if (input.webhook.secret === null) d.secrets.delete(WEBHOOK_SECRET);
          else if (input.webhook.secret !== undefined) d.secrets.set(WEBHOOK_SECRET, input.webhook.secret);
          changed.push(`webhook to ${input.webhook.url}${input.webhook.secret ? ' (signing secret kept in the vault)' : ''}`);
        }
      }
      if (input.consoleUrl !== undefined) {
        config.consoleUrl = input.consoleUrl;
        changed.push(`links to ${input.consoleUrl ?? 'nowhere'}`);
      }
      d.write(config);
      await d.audit({
        operator: ctx.operator(),
        action: 'alert:delivery-set',
        target: null,
        reason: null,
        result: changed.join('; ') || 'nothing changed',
      });
      return deliveryView(ctx);
    },
    'alerts:testDelivery': async ({ way }) => ctx.delivery.deliverer.test(way),
    'alerts:evaluate': async () => {
      const rules = (await store.rules()).filter((r) => r.enabled);
      const out = [];
      for (const rule of rules) {
        const t = await ctx.service.evaluateOrSay(rule);
        out.push({
          ruleId: rule.id,
          outcome: t.kind,
          summary: t.kind === 'none' ? null : t.kind === 'failed' ? `Could not be checked: ${t.reason}` : t.alert.summary,
        });
      }
      return out;
    },
  };
}

function deliveryView(ctx: AlertsContext) {
  const c = ctx.delivery.read();
  return {
    email: c.email ? { ...c.email, hasPassword: ctx.delivery.secrets.has(SMTP_PASSWORD) } : null,
    webhook: c.webhook ? { ...c.webhook, hasSecret: ctx.delivery.secrets.has(WEBHOOK_SECRET) } : null,
    consoleUrl: c.consoleUrl,
  };
}

const titleOf = (rule: AlertRule | undefined) => (rule ? ruleTitle(rule.kind, rule.params) : 'A removed rule');

function ruleView(r: AlertRule, now: Date): AlertRuleView {
  return {
    id: r.id,
    kind: r.kind,
    params: r.params,
    enabled: r.enabled,
    text: ruleText(r.kind, r.params),
    silencedUntil: r.silencedUntil,
    silenceReason: r.silenceReason,
    silencedBy: r.silencedBy,
    silenced: r.silencedUntil !== null && Date.parse(r.silencedUntil) > now.getTime(),
    createdAt: r.createdAt,
    createdBy: r.createdBy,
  };
}

/** An alert as the person asking sees it: `readAt`, when they last read it. Changed since (fired, then resolved), it is unread again. */
function alertView(a: Alert, rule: AlertRule, now: Date, readAt: string | undefined): AlertView {
  const changedAt = a.resolvedAt ?? a.firstAt;
  return {
    id: a.id,
    ruleId: a.ruleId,
    title: ruleTitle(rule.kind, rule.params),
    rule: ruleText(rule.kind, rule.params),
    state: a.state,
    summary: a.summary,
    firstAt: a.firstAt,
    lastAt: a.lastAt,
    resolvedAt: a.resolvedAt,
    acknowledgedBy: a.acknowledgedBy,
    acknowledgedAt: a.acknowledgedAt,
    silenced: rule.silencedUntil !== null && Date.parse(rule.silencedUntil) > now.getTime(),
    unread: readAt === undefined || Date.parse(readAt) < Date.parse(changedAt),
  };
}
