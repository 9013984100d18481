import { randomUUID } from 'node:crypto';
import { KIND_TEXT, paramsOf, ruleText } from '../../../shared/alerts/alerts.js';
import type { AlertRuleView, AlertView } from '../../../shared/ipc/contract.js';
import type { CoreContext, HandlersOf } from '../context.js';
import { CoreError } from '../errors.js';
import type { Alert, AlertRule, AlertStore } from './port.js';
import type { AlertService } from './service.js';

type AlertChannels =
  'alerts:list' | 'alerts:acknowledge' | 'alerts:rules' | 'alerts:addRule' | 'alerts:removeRule' | 'alerts:silence' | 'alerts:evaluate';

export interface AlertsContext extends Pick<CoreContext, 'clock' | 'operator'> {
  alerts: AlertStore;
  service: AlertService;
}

/** The alerts domain (issue 38): the rules (compliance and admins manage them), the alerts they raise (everyone sees and acknowledges), silences. */
export function alertHandlers(ctx: AlertsContext): HandlersOf<AlertChannels> {
  const store = ctx.alerts;
  const now = () => ctx.clock();
  const rulesById = async () => new Map((await store.rules()).map((r) => [r.id, r]));

  return {
    'alerts:list': async ({ limit }) => {
      const [alerts, rules] = await Promise.all([store.list(limit), rulesById()]);
      const views = alerts.flatMap((a) => {
        const rule = rules.get(a.ruleId);
        return rule ? [alertView(a, rule, now())] : [];
      });
      return { alerts: views, attention: views.filter((a) => a.state === 'firing' && !a.acknowledgedAt).length };
    },
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
      return alertView(alert, rule, now());
    },
    'alerts:rules': async () => (await store.rules()).map((r) => ruleView(r, now())),
    'alerts:addRule': async ({ kind, params, enabled }) => {
      const checked = paramsOf(kind, params);
      if (checked.problem !== null) throw new CoreError('INVALID_INPUT', checked.problem);
      const by = ctx.operator();
      const at = now().toISOString();
      const rule = await store.addRule(
        { id: randomUUID(), kind, params: checked.params, enabled, createdAt: at, createdBy: by },
        { operator: by, action: 'alert-rule:add', target: null, reason: null, result: `added: ${ruleText(kind, checked.params)}` },
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
    'alerts:evaluate': async () => {
      const rules = (await store.rules()).filter((r) => r.enabled);
      const out = [];
      for (const rule of rules) {
        const t = await ctx.service.evaluateRule(rule);
        out.push({ ruleId: rule.id, outcome: t.kind, summary: t.kind === 'none' ? null : t.alert.summary });
      }
      return out;
    },
  };
}

const titleOf = (rule: AlertRule | undefined) => (rule ? KIND_TEXT[rule.kind] : 'A removed rule');

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

function alertView(a: Alert, rule: AlertRule, now: Date): AlertView {
  return {
    id: a.id,
    ruleId: a.ruleId,
    title: KIND_TEXT[rule.kind],
    rule: ruleText(rule.kind, rule.params),
    state: a.state,
    summary: a.summary,
    firstAt: a.firstAt,
    lastAt: a.lastAt,
    resolvedAt: a.resolvedAt,
    acknowledgedBy: a.acknowledgedBy,
    acknowledgedAt: a.acknowledgedAt,
    silenced: rule.silencedUntil !== null && Date.parse(rule.silencedUntil) > now.getTime(),
  };
}
