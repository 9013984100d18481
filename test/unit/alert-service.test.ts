import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ALERTS_OPERATOR, AlertService, type AlertMessage } from '../../electron/core/alerts/service.js';
import type { Signals } from '../../electron/core/alerts/evaluate.js';
import type { AlertRule } from '../../electron/core/alerts/port.js';
import { openCache } from '../../electron/core/cache/database.js';
import { sqliteStorage } from '../../electron/core/cache/sqlite-storage.js';
import type { AlertKind, AlertParams } from '../../shared/alerts/alerts.js';

/**
 * The alert rules at work, on a real store (SQLite, the schema the console migrates to) with the
 * signals and the clock in the test's hands: one message when a rule starts firing, none more for
 * the rest of a burst, the repeat after its interval, one resolved message, a silence that holds
 * messages back (and the first one that goes out when it ends), and each opening and resolution
 * audited.
 */
function world() {
  const db = openCache(':memory:');
  const storage = sqliteStorage(db);
  // These tests are about the rules they add: the rule 9.4 reminder every store starts with is left out.
  db.prepare("DELETE FROM alert_rules WHERE id = 'rule94-reminder'").run();
  let now = Date.parse('2026-11-20T00:00:00.000Z');
  const counts = new Map<string, number>();
  const signals: Signals = {
    // A data holder's own counts are kept under "holder:type".
    events: async (types, _from, holder) => types.reduce((n, t) => n + (counts.get(holder ? `${holder}:${t}` : t) ?? 0), 0),
    expiring: async () => counts.get('expiring') ?? 0,
    lastSync: async () => null,
    audit: async () => ({ ok: true }),
    reportAwaiting: async () => {
      if (counts.get('report') === -1) throw new Error('the report could not be counted: database is locked');
      return { firing: (counts.get('report') ?? 0) > 0, summary: 'The rule 9.4 report waits for sign-off' };
    },
  };
  const messages: AlertMessage[] = [];
  const errors: string[] = [];
  const service = new AlertService({
    store: storage.alerts,
    signals,
    clock: () => new Date(now),
    log: { info() {}, error: (message: string) => void errors.push(message) },
    deliver: async (m) => void messages.push(m),
  });
  const addRule = (kind: AlertKind, params: AlertParams): Promise<AlertRule> =>
    storage.alerts.addRule(
      { id: randomUUID(), kind, params, enabled: true, createdAt: new Date(now).toISOString(), createdBy: 'sam' },
      { operator: 'sam', action: 'alert-rule:add', target: null, reason: null, result: 'added' },
    );
  const told = () => messages.map((m) => `${m.kind}: ${m.found}`);
  return {
    storage,
    service,
    addRule,
    told,
    errors,
    set: (type: string, n: number) => counts.set(type, n),
    advance: (minutes: number) => void (now += minutes * 60_000),
    close: () => db.close(),
  };
}

describe('alert rules at work', () => {
  it('a rule that cannot be checked is logged and said, and the other rules are still checked', async () => {
    const w = world();
    const reminder = await w.addRule('report-unsigned', {});
    await w.addRule('max-retries', { windowMinutes: 60, atLeast: 1 });
    w.set('report', -1);
    w.set('WEBHOOK_MAX_RETRIES_REACHED', 2);
    const done = await w.service.evaluateAll();
    expect(done).toHaveLength(2);
    expect(done).toEqual(
      expect.arrayContaining([
        { kind: 'failed', reason: 'the report could not be counted: database is locked' },
        expect.objectContaining({ kind: 'opened' }),
      ]),
    );
    expect(w.errors).toEqual([
      `alerts: the rule "Rule 9.4 report waiting for sign-off" (${reminder.id}) could not be checked: the report could not be counted: database is locked`,
    ]);
    w.close();
  });

  it('reminds of the rule 9.4 report once a day while it waits for sign-off, and resolves when it is signed', async () => {
    const w = world();
    await w.addRule('report-unsigned', {});
    w.set('report', 1);
    expect((await w.service.evaluateAll()).map((t) => t.kind)).toEqual(['opened']);
    w.advance(5 * 60); // five hours: a 4-hour rule would repeat, the reminder waits for its day
    expect((await w.service.evaluateAll()).map((t) => t.kind)).toEqual(['updated']);
    w.advance(19 * 60);
    expect((await w.service.evaluateAll()).map((t) => t.kind)).toEqual(['repeated']);
    w.set('report', 0); // signed off
    expect((await w.service.evaluateAll()).map((t) => t.kind)).toEqual(['resolved']);
    expect(w.told()).toEqual([
      'firing: The rule 9.4 report waits for sign-off',
      'repeat: The rule 9.4 report waits for sign-off',
      'resolved: The rule 9.4 report waits for sign-off',
    ]);
    w.close();
  });

  it('tells a burst once, repeats after its interval, tells the resolution once, and audits each change', async () => {
    const w = world();
    await w.addRule('webhook-failures', { windowMinutes: 60, atLeast: 5, ratePercent: 50 });
    w.set('WEBHOOK_SENT', 100);
    w.set('WEBHOOK_SENDING_FAILED', 4);
    expect((await w.service.evaluateAll()).map((t) => t.kind)).toEqual(['none']);
    // The burst: 6, then 9, then 12 failures over the next half hour — one message.
    for (const failed of [6, 9, 12]) {
      w.set('WEBHOOK_SENDING_FAILED', failed);
      await w.service.evaluateAll();
      w.advance(10);
    }
    expect(w.told()).toEqual(['firing: 6 webhook deliveries failed in the last 1 hour (6% of 106)']);
    const [alert] = (await w.storage.alerts.list(10)).filter((a) => a.state === 'firing');
    expect(alert!.summary).toBe('12 webhook deliveries failed in the last 1 hour (11% of 112)');
    // Still failing four hours after the first message: told again, once.
    w.advance(4 * 60 - 30);
    await w.service.evaluateAll();
    await w.service.evaluateAll();
    expect(w.told()).toHaveLength(2);
    expect(w.told()[1]).toMatch(/^repeat: 12 webhook deliveries failed/);
    // Recovery: resolved, told once.
    w.set('WEBHOOK_SENDING_FAILED', 0);
    await w.service.evaluateAll();
    await w.service.evaluateAll();
    expect(w.told()).toHaveLength(3);
    expect(w.told()[2]).toBe('resolved: 0 webhook deliveries failed in the last 1 hour (0% of 100)');
    // The resolved alert keeps what it last found while firing.
    expect((await w.storage.alerts.list(10))[0]).toMatchObject({
      state: 'resolved',
      summary: expect.stringMatching(/^12 webhook deliveries failed/),
    });
    const audit = (await w.storage.audit.entries()).map((e) => [e.operator, e.action]);
    expect(audit).toEqual([
      ['sam', 'alert-rule:add'],
      [ALERTS_OPERATOR, 'alert:firing'],
      [ALERTS_OPERATOR, 'alert:resolved'],
    ]);
    // A new burst later opens a new alert: the old one stays resolved in the list.
    w.set('WEBHOOK_SENDING_FAILED', 50);
    await w.service.evaluateAll();
    expect((await w.storage.alerts.list(10)).map((a) => a.state)).toEqual(['firing', 'resolved']);
    w.close();
  });

  it('fires on the share of deliveries failing as well as on the count', async () => {
    const w = world();
    await w.addRule('webhook-failures', { windowMinutes: 60, atLeast: 50, ratePercent: 20 });
    w.set('WEBHOOK_SENT', 12);
    w.set('WEBHOOK_SENDING_FAILED_CLIENT_ERROR', 2);
    w.set('WEBHOOK_MAX_RETRIES_REACHED', 1);
    await w.service.evaluateAll();
    expect(w.told()).toEqual(['firing: 3 webhook deliveries failed in the last 1 hour (20% of 15)']);
    w.close();
  });

  it('a rule that watches one data holder counts its events only, and names it in the message', async () => {
    const w = world();
    await w.addRule('webhook-failures', { windowMinutes: 60, atLeast: 5, dataHolder: { id: 'anz', name: 'ANZ' } });
    w.set('WEBHOOK_SENDING_FAILED', 40); // every data holder's
    w.set('anz:WEBHOOK_SENDING_FAILED', 4);
    await w.service.evaluateAll();
    expect(w.told()).toEqual([]);
    w.set('anz:WEBHOOK_SENDING_FAILED', 5);
    await w.service.evaluateAll();
    expect(w.told()).toEqual(['firing: 5 webhook deliveries at ANZ failed in the last 1 hour (100% of 5)']);
    expect((await w.storage.alerts.list(5)).map((a) => a.summary)).toEqual([
      '5 webhook deliveries at ANZ failed in the last 1 hour (100% of 5)',
    ]);
    w.close();
  });

  it('holds a silenced rule’s messages back, and tells the alert when the silence ends if it still fires', async () => {
    const w = world();
    const rule = await w.addRule('withdrawal-spike', { windowMinutes: 60, atLeast: 3 });
    await w.storage.alerts.silence(rule.id, '2026-11-20T02:00:00.000Z', 'planned campaign close-out', 'sam', '2026-11-20T00:00:00.000Z', {
      operator: 'sam',
      action: 'alert:silenced',
      target: null,
      reason: 'planned campaign close-out',
      result: 'silenced',
    });
    w.set('REVOKED', 8);
    await w.service.evaluateAll();
    w.advance(60);
    await w.service.evaluateAll();
    expect(w.told()).toEqual([]);
    // The alert is open all the same (the notification centre shows it), not told.
    expect((await w.storage.alerts.list(10))[0]).toMatchObject({ state: 'firing', notifiedAt: null });
    w.advance(61);
    await w.service.evaluateAll();
    expect(w.told()).toEqual(['firing: 8 consents withdrawn in the last 1 hour']);
    w.close();
  });

  it('an alert never told is resolved quietly; expiring consents are a daily digest', async () => {
    const w = world();
    const spike = await w.addRule('withdrawal-spike', { windowMinutes: 60, atLeast: 3 });
    await w.storage.alerts.silence(spike.id, '2026-11-21T00:00:00.000Z', 'testing', 'sam', '2026-11-20T00:00:00.000Z', {
      operator: 'sam',
      action: 'alert:silenced',
      target: null,
      reason: 'testing',
      result: 'silenced',
    });
    w.set('REVOKED', 5);
    await w.service.evaluateAll();
    w.set('REVOKED', 0);
    await w.service.evaluateAll();
    expect(w.told()).toEqual([]);

    await w.addRule('expiring-consents', { withinDays: 7 });
    w.set('expiring', 14);
    await w.service.evaluateAll();
    for (let h = 0; h < 23; h++) {
      w.advance(60);
      await w.service.evaluateAll();
    }
    expect(w.told()).toEqual(['firing: 14 active consents end sharing within 7 days']);
    w.advance(60);
    await w.service.evaluateAll();
    expect(w.told()).toEqual([
      'firing: 14 active consents end sharing within 7 days',
      'repeat: 14 active consents end sharing within 7 days',
    ]);
    w.close();
  });

  it('a second server evaluating the same rule finds the alert open and tells nothing', async () => {
    const w = world();
    await w.addRule('max-retries', { windowMinutes: 60, atLeast: 1 });
    w.set('WEBHOOK_MAX_RETRIES_REACHED', 2);
    const other = new AlertService({
      store: w.storage.alerts,
      signals: {
        events: async () => 2,
        expiring: async () => 0,
        lastSync: async () => null,
        audit: async () => ({ ok: true }),
        reportAwaiting: async () => ({ firing: false, summary: 'signed' }),
      },
      clock: () => new Date('2026-11-20T00:00:00.000Z'),
      log: { info() {}, error() {} },
      deliver: async () => {
        throw new Error('the other server must not tell it');
      },
    });
    const [mine] = await w.service.evaluateAll();
    const [theirs] = await other.evaluateAll();
    expect([mine!.kind, theirs!.kind]).toEqual(['opened', 'updated']);
    expect(w.told()).toEqual(['firing: 2 webhook deliveries reached max retries in the last 1 hour']);
    w.close();
  });
});
