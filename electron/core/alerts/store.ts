import type { AlertKind, AlertParams } from '../../../shared/alerts/alerts.js';
import { isUniqueViolation, type QueryRunner } from '../query/query.js';
import type { AlertRulesTable, AlertsTable } from '../query/schema.js';
import type { Alert, AlertRule, AlertStore } from './port.js';

/** The alerts' store, written once for SQLite and PostgreSQL over the typed query layer (query/query.ts). */
export function alertStore(db: QueryRunner): AlertStore {
  const ruleById = async (id: string) => {
    const q = await db.queries();
    return (await db.all(q.selectFrom('alert_rules').selectAll().where('id', '=', id)))[0];
  };
  const first = <R>(rows: R[]) => rows[0];
  /** Which of these ids are alerts (a read of an alert removed meanwhile records nothing). */
  const existing = async (ids: readonly string[]) => {
    if (!ids.length) return [];
    const q = await db.queries();
    return (
      await db.all(
        q
          .selectFrom('alerts')
          .select('id')
          .where('id', 'in', [...new Set(ids)]),
      )
    ).map((r) => r.id);
  };

  return {
    async rules() {
      const q = await db.queries();
      return (await db.all(q.selectFrom('alert_rules').selectAll().orderBy('created_at').orderBy('id'))).map(ruleOf);
    },
    async rule(id) {
      const r = await ruleById(id);
      return r && ruleOf(r);
    },
    async addRule(rule, audit) {
      const q = await db.queries();
      const { rows } = await db.audited(
        q
          .insertInto('alert_rules')
          .values({
            id: rule.id,
            kind: rule.kind,
            params: JSON.stringify(rule.params),
            enabled: rule.enabled ? 1 : 0,
            silenced_until: null,
            silence_reason: null,
            silenced_by: null,
            created_at: rule.createdAt,
            created_by: rule.createdBy,
            updated_at: rule.createdAt,
            version: 1,
          })
          .returningAll(),
        () => audit,
      );
      return ruleOf(rows[0]!);
    },
    async removeRule(id, audit) {
      const rule = await ruleById(id);
      if (!rule) return false;
      const q = await db.queries();
      // Its alerts go with it, and who read them.
      await db.all(q.deleteFrom('alert_reads').where('alert_id', 'in', q.selectFrom('alerts').select('id').where('rule_id', '=', id)));
      await db.all(q.deleteFrom('alerts').where('rule_id', '=', id));
      const { rows } = await db.audited(q.deleteFrom('alert_rules').where('id', '=', id).returningAll(), (rows) =>
        rows[0] ? audit(ruleOf(rows[0])) : null,
      );
      return rows.length > 0;
    },
    async silence(id, until, reason, by, at, audit) {
      const q = await db.queries();
      const { rows } = await db.audited(
        q
          .updateTable('alert_rules')
          .set((eb) => ({
            silenced_until: until,
            silence_reason: until ? reason : null,
            silenced_by: until ? by : null,
            updated_at: at,
            version: eb('version', '+', 1),
          }))
          .where('id', '=', id)
          .returningAll(),
        (rows) => (rows[0] ? audit : null),
      );
      return rows[0] && ruleOf(rows[0]);
    },
    async firing(ruleId) {
      const q = await db.queries();
      const a = first(await db.all(q.selectFrom('alerts').selectAll().where('rule_id', '=', ruleId).where('state', '=', 'firing')));
      return a && alertOf(a);
    },
    async open(alert, audit) {
      const q = await db.queries();
      try {
        const { rows } = await db.audited(q.insertInto('alerts').values(rowOf(alert)).returningAll(), () => audit);
        return alertOf(rows[0]!);
      } catch (e) {
        // Another server opened the rule's firing alert first (the unique index on firing alerts).
        if (isUniqueViolation(e)) return undefined;
        throw e;
      }
    },
    async touch(alert, summary, at, notify) {
      const q = await db.queries();
      let query = q
        .updateTable('alerts')
        .set({ summary, last_at: at, ...(notify ? { notified_at: at } : {}) })
        .where('id', '=', alert.id)
        .where('state', '=', 'firing');
      // The repeat goes out from one server: the one whose write still sees the last notification.
      if (notify)
        query = alert.notifiedAt === null ? query.where('notified_at', 'is', null) : query.where('notified_at', '=', alert.notifiedAt);
      const a = first(await db.all(query.returningAll()));
      return a && alertOf(a);
    },
    async notified(alert, at) {
      const q = await db.queries();
      const a = first(
        await db.all(
          q.updateTable('alerts').set({ notified_at: at }).where('id', '=', alert.id).where('notified_at', 'is', null).returningAll(),
        ),
      );
      return a && alertOf(a);
    },
    async resolve(alert, at, audit) {
      const q = await db.queries();
      const { rows } = await db.audited(
        q
          .updateTable('alerts')
          .set({ state: 'resolved', resolved_at: at, last_at: at })
          .where('id', '=', alert.id)
          .where('state', '=', 'firing')
          .returningAll(),
        (rows) => (rows[0] ? audit : null),
      );
      return rows[0] && alertOf(rows[0]);
    },
    async acknowledge(id, by, at, audit) {
      const q = await db.queries();
      const { rows } = await db.audited(
        q
          .updateTable('alerts')
          .set({ acknowledged_by: by, acknowledged_at: at })
          .where('id', '=', id)
          .where('acknowledged_at', 'is', null)
          .returningAll(),
        (rows) => (rows[0] ? audit(alertOf(rows[0])) : null),
      );
      return rows[0] && alertOf(rows[0]);
    },
    async list(limit) {
      const q = await db.queries();
      return (
        await db.all(
          q
            .selectFrom('alerts')
            .selectAll()
            .orderBy((eb) => eb.case().when('state', '=', 'firing').then(0).else(1).end())
            .orderBy('last_at', 'desc')
            .orderBy('id')
            .limit(limit),
        )
      ).map(alertOf);
    },
    async markRead(person, ids, at) {
      const known = await existing(ids);
      if (!known.length) return 0;
      const q = await db.queries();
      await db.all(
        q
          .insertInto('alert_reads')
          .values(known.map((alert_id) => ({ alert_id, person, read_at: at })))
          .onConflict((oc) => oc.columns(['alert_id', 'person']).doUpdateSet({ read_at: at })),
      );
      return known.length;
    },
    async readsOf(person, ids) {
      if (!ids.length) return new Map();
      const q = await db.queries();
      const rows = await db.all(
        q
          .selectFrom('alert_reads')
          .select(['alert_id', 'read_at'])
          .where('person', '=', person)
          .where('alert_id', 'in', [...ids]),
      );
      return new Map(rows.map((r) => [r.alert_id, r.read_at]));
    },
    async holderEvents(dataHolderBrandId, types, from) {
      if (!types.length) return 0;
      const q = await db.queries();
      // The one difference between the engines: SQLite keeps an event's time in milliseconds.
      const since = db.engine === 'sqlite' ? Date.parse(from) : from;
      const rows = await db.all(
        q
          .selectFrom('events as e')
          .innerJoin('consents as c', 'c.consent_id', 'e.consent_id')
          .where('c.data_holder_brand_id', '=', dataHolderBrandId)
          .where('e.event_type', 'in', [...types])
          .where('e.at', '>=', since)
          .select((eb) => eb.fn.countAll<number | string>().as('n')),
      );
      return Number(rows[0]?.n ?? 0);
    },
  };
}

function ruleOf(r: AlertRulesTable): AlertRule {
  return {
    id: r.id,
    kind: r.kind as AlertKind,
    params: JSON.parse(r.params) as AlertParams,
    enabled: Number(r.enabled) === 1,
    silencedUntil: r.silenced_until,
    silenceReason: r.silence_reason,
    silencedBy: r.silenced_by,
    createdAt: r.created_at,
    createdBy: r.created_by,
    updatedAt: r.updated_at,
    version: Number(r.version),
  };
}

function alertOf(r: AlertsTable): Alert {
  return {
    id: r.id,
    ruleId: r.rule_id,
    state: r.state === 'firing' ? 'firing' : 'resolved',
    summary: r.summary,
    firstAt: r.first_at,
    lastAt: r.last_at,
    notifiedAt: r.notified_at,
    resolvedAt: r.resolved_at,
    acknowledgedBy: r.acknowledged_by,
    acknowledgedAt: r.acknowledged_at,
  };
}

function rowOf(a: Alert): AlertsTable {
  return {
    id: a.id,
    rule_id: a.ruleId,
    state: a.state,
    summary: a.summary,
    first_at: a.firstAt,
    last_at: a.lastAt,
    notified_at: a.notifiedAt,
    resolved_at: a.resolvedAt,
    acknowledged_by: a.acknowledgedBy,
    acknowledged_at: a.acknowledgedAt,
  };
}
