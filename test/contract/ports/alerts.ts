import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Alert } from '../../../electron/core/alerts/port.js';
import type { AuditEntry } from '../../../electron/core/audit/port.js';
import { withStore, type OpenFixture } from '../fixture.js';
import { sampleWorld, SYNCED_AT } from '../world.js';

/** The alerts domain's port: AlertStore, one implementation over the typed query layer, on each engine. */
export function alertStoreSuite(open: OpenFixture) {
  const { consents, events } = sampleWorld();
  const entry = (action: string): AuditEntry => ({ operator: 'sam', action, target: null, reason: null, result: 'ok' });
  const alertOf = (ruleId: string, at: string, over: Partial<Alert> = {}): Alert => ({
    id: randomUUID(),
    ruleId,
    state: 'firing',
    summary: '7 failed',
    firstAt: at,
    lastAt: at,
    notifiedAt: at,
    resolvedAt: null,
    acknowledgedBy: null,
    acknowledgedAt: null,
    ...over,
  });

  describe('AlertStore', () => {
    it(
      'keeps rules with their parameters, silences them with a reason, and removes them with their alerts, each audited',
      withStore(open, async ({ storage }) => {
        // A new store has one rule, the rule 9.4 report's reminder (its migration adds it; a person may remove it).
        const builtIn = await storage.alerts.rules();
        expect(builtIn.map((r) => [r.id, r.kind, r.enabled, r.params])).toEqual([['rule94-reminder', 'report-unsigned', true, {}]]);
        expect(await storage.alerts.removeRule('rule94-reminder', () => entry('alert-rule:remove'))).toBe(true);
        const rule = await storage.alerts.addRule(
          {
            id: randomUUID(),
            kind: 'webhook-failures',
            params: { windowMinutes: 60, atLeast: 5, ratePercent: 20 },
            enabled: true,
            createdAt: '2026-11-20T00:00:00.000Z',
            createdBy: 'sam',
          },
          entry('alert-rule:add'),
        );
        expect(await storage.alerts.rules()).toEqual([rule]);
        expect(rule).toMatchObject({
          params: { windowMinutes: 60, atLeast: 5, ratePercent: 20 },
          enabled: true,
          silencedUntil: null,
          version: 1,
        });
        const silenced = await storage.alerts.silence(
          rule.id,
          '2026-11-20T02:00:00.000Z',
          'maintenance',
          'kim',
          '2026-11-20T00:05:00.000Z',
          entry('alert:silenced'),
        );
        expect(silenced).toMatchObject({
          silencedUntil: '2026-11-20T02:00:00.000Z',
          silenceReason: 'maintenance',
          silencedBy: 'kim',
          version: 2,
        });
        const lifted = await storage.alerts.silence(rule.id, null, 'ignored', 'kim', '2026-11-20T00:06:00.000Z', entry('alert:unsilenced'));
        expect(lifted).toMatchObject({ silencedUntil: null, silenceReason: null, silencedBy: null, version: 3 });
        await storage.alerts.open(alertOf(rule.id, '2026-11-20T00:10:00.000Z'), entry('alert:firing'));
        expect(await storage.alerts.removeRule(rule.id, () => entry('alert-rule:remove'))).toBe(true);
        expect(await storage.alerts.removeRule(rule.id, () => entry('alert-rule:remove'))).toBe(false);
        expect(await storage.alerts.rules()).toEqual([]);
        expect(await storage.alerts.list(10)).toEqual([]);
        expect((await storage.audit.entries()).map((e) => e.action)).toEqual([
          'alert-rule:remove',
          'alert-rule:add',
          'alert:silenced',
          'alert:unsilenced',
          'alert:firing',
          'alert-rule:remove',
        ]);
      }),
    );

    it(
      'opens one firing alert per rule however many try at once, resolves it once, and repeats it once per interval',
      withStore(open, async ({ storage }) => {
        const ruleId = randomUUID();
        const at = '2026-11-20T01:00:00.000Z';
        const opened = await Promise.all([1, 2, 3].map(() => storage.alerts.open(alertOf(ruleId, at), entry('alert:firing'))));
        expect(opened.filter(Boolean)).toHaveLength(1);
        const alert = (await storage.alerts.firing(ruleId))!;
        expect(alert).toEqual(opened.find(Boolean));
        // The repeat: of two servers holding the same alert, one takes it.
        const repeats = await Promise.all([1, 2].map(() => storage.alerts.touch(alert, '9 failed', '2026-11-20T05:00:00.000Z', true)));
        expect(repeats.filter(Boolean)).toHaveLength(1);
        expect(await storage.alerts.touch(alert, '10 failed', '2026-11-20T05:01:00.000Z', false)).toMatchObject({
          summary: '10 failed',
          notifiedAt: '2026-11-20T05:00:00.000Z',
        });
        const resolved = await Promise.all(
          [1, 2].map(() => storage.alerts.resolve(alert, '2026-11-20T06:00:00.000Z', entry('alert:resolved'))),
        );
        expect(resolved.filter(Boolean)).toHaveLength(1);
        expect(await storage.alerts.firing(ruleId)).toBeUndefined();
        expect((await storage.audit.entries()).map((e) => e.action)).toEqual(['alert:firing', 'alert:resolved']);
        // Acknowledged once, by the first who did.
        expect(
          await storage.alerts.acknowledge(alert.id, 'kim', '2026-11-20T06:01:00.000Z', () => entry('alert:acknowledged')),
        ).toMatchObject({ acknowledgedBy: 'kim' });
        expect(
          await storage.alerts.acknowledge(alert.id, 'lee', '2026-11-20T06:02:00.000Z', () => entry('alert:acknowledged')),
        ).toBeUndefined();
        // The list: firing alerts first, then the newest.
        await storage.alerts.open(alertOf(ruleId, '2026-11-20T07:00:00.000Z'), entry('alert:firing'));
        expect((await storage.alerts.list(10)).map((a) => [a.state, a.acknowledgedBy])).toEqual([
          ['firing', null],
          ['resolved', 'kim'],
        ]);
        expect(await storage.audit.verify()).toMatchObject({ ok: true });
      }),
    );

    it(
      'keeps who read which alert, each person apart; a later read replaces an earlier one; removing the rule removes them',
      withStore(open, async ({ storage }) => {
        const rule = await storage.alerts.addRule(
          {
            id: randomUUID(),
            kind: 'sync-stale',
            params: { hours: 6 },
            enabled: true,
            createdAt: '2026-11-20T00:00:00.000Z',
            createdBy: 'sam',
          },
          entry('alert-rule:add'),
        );
        const one = (await storage.alerts.open(alertOf(rule.id, '2026-11-20T01:00:00.000Z'), entry('alert:firing')))!;
        expect(await storage.alerts.readsOf('kim', [one.id])).toEqual(new Map());
        expect(await storage.alerts.markRead('kim', [one.id, 'no-such-alert'], '2026-11-20T01:05:00.000Z')).toBe(1);
        expect(await storage.alerts.markRead('lee', ['no-such-alert'], '2026-11-20T01:05:00.000Z')).toBe(0);
        expect(await storage.alerts.readsOf('kim', [one.id])).toEqual(new Map([[one.id, '2026-11-20T01:05:00.000Z']]));
        expect(await storage.alerts.readsOf('lee', [one.id])).toEqual(new Map());
        expect(await storage.alerts.markRead('kim', [one.id, one.id], '2026-11-20T02:00:00.000Z')).toBe(1);
        expect(await storage.alerts.readsOf('kim', [one.id, 'no-such-alert'])).toEqual(new Map([[one.id, '2026-11-20T02:00:00.000Z']]));
        expect(await storage.alerts.readsOf('kim', [])).toEqual(new Map());
        expect(await storage.alerts.removeRule(rule.id, () => entry('alert-rule:remove'))).toBe(true);
        expect(await storage.alerts.readsOf('kim', [one.id])).toEqual(new Map());
      }),
    );

    it(
      'counts one data holder’s consents’ events of some types from an instant, as a rule that watches one does',
      withStore(open, async ({ storage, load, settled }) => {
        await load.consents(consents, SYNCED_AT);
        await load.events(events);
        await settled();
        const holderOf = new Map(consents.map((c) => [c.consentId, c.dataHolderBrandId]));
        const holders = [...new Set(consents.map((c) => c.dataHolderBrandId).filter((h): h is string => !!h))];
        expect(holders.length).toBeGreaterThan(1);
        const times = events.map((e) => e.timestamp).sort();
        const from = times[Math.floor(times.length / 2)]!;
        const types = ['REVOKED', 'WEBHOOK_SENDING_FAILED', 'DATA_COLLECTION_COMPLETED'];
        let seen = 0;
        for (const holder of holders) {
          const expected = events.filter(
            (e) => holderOf.get(e.consentId) === holder && types.includes(e.eventType) && Date.parse(e.timestamp) >= Date.parse(from),
          ).length;
          seen += expected;
          expect(await storage.alerts.holderEvents(holder, types, from)).toBe(expected);
        }
        expect(seen).toBeGreaterThan(0);
        expect(await storage.alerts.holderEvents('no-such-holder', types, from)).toBe(0);
        expect(await storage.alerts.holderEvents(holders[0]!, [], from)).toBe(0);
        expect(await storage.alerts.holderEvents(holders[0]!, types, new Date(Date.parse(times.at(-1)!) + 1).toISOString())).toBe(0);
      }),
    );
  });
}
