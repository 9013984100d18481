import type { QueryRunner } from '../../query/query.js';
import type { MonthlyPacksTable, ReportSchedulesTable } from '../../query/schema.js';
import type { MonthlyPack, MonthlyPackStore, MonthlySchedule, PackSummary } from './port.js';

const SCHEDULE_ID = 'monthly-pack';

/** The monthly compliance pack's store, written once for SQLite and PostgreSQL over the typed query layer (query/query.ts). */
export function monthlyPackStore(db: QueryRunner): MonthlyPackStore {
  const byPeriod = async (period: string) => {
    const q = await db.queries();
    const row = (await db.all(q.selectFrom('monthly_packs').selectAll().where('period', '=', period)))[0];
    return row && packOf(row);
  };
  return {
    async schedule() {
      const q = await db.queries();
      const row = (await db.all(q.selectFrom('report_schedules').selectAll().where('id', '=', SCHEDULE_ID)))[0];
      return row && scheduleOf(row);
    },
    async setSchedule(s, audit) {
      const q = await db.queries();
      const values = {
        id: SCHEDULE_ID,
        enabled: s.enabled ? 1 : 0,
        time_zone: s.timeZone,
        changed_by: s.changedBy,
        changed_at: s.changedAt,
      };
      const { rows } = await db.audited(
        q
          .insertInto('report_schedules')
          .values(values)
          .onConflict((oc) =>
            oc.column('id').doUpdateSet({
              enabled: values.enabled,
              time_zone: values.time_zone,
              changed_by: values.changed_by,
              changed_at: values.changed_at,
            }),
          )
          .returningAll(),
        () => audit,
      );
      return scheduleOf(rows[0]!);
    },
    async list(limit) {
      const q = await db.queries();
      // The rows without their files: the screen lists them at every change of the cache.
      const rows = await db.all(
        q
          .selectFrom('monthly_packs')
          .select(['period', 'time_zone', 'from_at', 'to_at', 'made_at', 'made_by', 'sha256', 'sent'])
          .orderBy('period', 'desc')
          .limit(limit),
      );
      return rows.map((r) => summaryOf(r));
    },
    get: byPeriod,
    async make(pack, audit) {
      const q = await db.queries();
      const { rows } = await db.audited(
        q
          .insertInto('monthly_packs')
          .values(rowOf(pack))
          .onConflict((oc) => oc.column('period').doNothing())
          .returningAll(),
        (rows) => (rows[0] ? audit : null),
      );
      return rows[0] ? packOf(rows[0]) : null;
    },
    async sent(period, detail) {
      const q = await db.queries();
      await db.all(q.updateTable('monthly_packs').set({ sent: detail }).where('period', '=', period));
    },
  };
}

function scheduleOf(r: ReportSchedulesTable): MonthlySchedule {
  return { enabled: Number(r.enabled) === 1, timeZone: r.time_zone, changedBy: r.changed_by, changedAt: r.changed_at };
}

function summaryOf(r: Omit<MonthlyPacksTable, 'html' | 'csv'>): PackSummary {
  return {
    period: r.period,
    timeZone: r.time_zone,
    from: r.from_at,
    to: r.to_at,
    madeAt: r.made_at,
    madeBy: r.made_by,
    sha256: r.sha256,
    sent: r.sent,
  };
}

const packOf = (r: MonthlyPacksTable): MonthlyPack => ({ ...summaryOf(r), html: r.html, csv: r.csv });

function rowOf(p: MonthlyPack): MonthlyPacksTable {
  return {
    period: p.period,
    time_zone: p.timeZone,
    from_at: p.from,
    to_at: p.to,
    made_at: p.madeAt,
    made_by: p.madeBy,
    html: p.html,
    csv: p.csv,
    sha256: p.sha256,
    sent: p.sent,
  };
}
