import type { Rule94Figure } from '../../../../shared/ipc/contract.js';
import type { Answers } from '../../../../shared/reports/rule94.js';
import { sql } from 'kysely';
import type { QueryRunner } from '../../query/query.js';
import type { Rule94ReportsTable } from '../../query/schema.js';
import type { Rule94Change, Rule94Store, StoredRule94 } from './port.js';

/**
 * The rule 9.4 reports' store, written once for SQLite and PostgreSQL over the typed query layer
 * (query/query.ts). The half-year is the key, so making a report is an insert that does nothing when
 * it exists: a report is made once however many servers try. Changes are conditional on the version
 * read and on the report being a draft; the engines' triggers refuse any change to a signed one.
 */
export function rule94Store(db: QueryRunner): Rule94Store {
  const byPeriod = async (period: string) => {
    const q = await db.queries();
    const row = (await db.all(q.selectFrom('rule94_reports').selectAll().where('period', '=', period)))[0];
    return row && reportOf(row);
  };

  /** Why a conditional write wrote nothing: changed since, signed, or gone. */
  const whyNot = async (period: string): Promise<Rule94Change> => {
    const now = await byPeriod(period);
    if (!now) return { outcome: 'missing' };
    return now.state === 'signed' ? { outcome: 'signed', current: now } : { outcome: 'conflict', current: now };
  };

  return {
    async list() {
      const q = await db.queries();
      return (await db.all(q.selectFrom('rule94_reports').selectAll().orderBy('period', 'desc'))).map(reportOf);
    },

    get: byPeriod,

    async make(r, audit) {
      const q = await db.queries();
      const { rows } = await db.audited(
        q
          .insertInto('rule94_reports')
          .values(rowOf(r))
          .onConflict((oc) => oc.column('period').doNothing())
          .returningAll(),
        (rows) => (rows[0] ? audit(reportOf(rows[0])) : null),
      );
      return rows[0] ? reportOf(rows[0]) : null;
    },

    async change(period, version, patch, audit) {
      const before = await byPeriod(period);
      if (!before) return { outcome: 'missing' };
      if (before.state === 'signed') return { outcome: 'signed', current: before };
      if (before.version !== version) return { outcome: 'conflict', current: before };
      const q = await db.queries();
      const { rows } = await db.audited(
        q
          .updateTable('rule94_reports')
          .set({
            ...(patch.answers ? { answers: JSON.stringify(patch.answers) } : {}),
            ...(patch.figures ? { figures: JSON.stringify(patch.figures) } : {}),
            ...(patch.countedAt ? { counted_at: patch.countedAt } : {}),
            version: version + 1,
          })
          .where('period', '=', period)
          .where('version', '=', version)
          .where('state', '=', 'draft')
          .returningAll(),
        (rows) => (rows[0] ? audit(before, reportOf(rows[0])) : null),
      );
      return rows[0] ? { outcome: 'changed', report: reportOf(rows[0]) } : whyNot(period);
    },

    async signOff(period, version, sign, audit) {
      const q = await db.queries();
      const { rows } = await db.audited(
        q
          .updateTable('rule94_reports')
          .set({ state: 'signed', signed_by: sign.signedBy, signed_at: sign.signedAt, sha256: sign.sha256, version: version + 1 })
          .where('period', '=', period)
          .where('version', '=', version)
          .where('state', '=', 'draft')
          .returningAll(),
        (rows) => (rows[0] ? audit(reportOf(rows[0])) : null),
      );
      return rows[0] ? { outcome: 'changed', report: reportOf(rows[0]) } : whyNot(period);
    },

    async consumersServed(from, to) {
      const q = await db.queries();
      // In force at some time in the period: granted before its end, and neither withdrawn nor ended before its start.
      // Distinct over `consumer_id || ''` (NULL stays NULL, so not counted): over the column itself,
      // SQLite walked the consumers' index for its order and read every consent by a random lookup,
      // ~0.7 s at 100,000 consents on the one thread, right after a first sync (the catch-up); over the
      // expression it sorts what it reads along the creation times, ~0.17 s.
      const rows = await db.all(
        q
          .selectFrom('consents')
          .select((eb) =>
            eb.fn
              .count<number>(sql`${sql.ref('consumer_id')} || ''`)
              .distinct()
              .as('n'),
          )
          .where('created', '<', to)
          .where((eb) => eb.or([eb('revoked', 'is', null), eb('revoked', '>=', from)]))
          .where((eb) => eb.or([eb('sharing_end_date', 'is', null), eb('sharing_end_date', '>=', from)])),
      );
      return Number(rows[0]?.n ?? 0);
    },

    async complaints(firstDay, lastDay) {
      const q = await db.queries();
      const [received, resolved, referred, open] = await Promise.all([
        db.all(
          q
            .selectFrom('complaints')
            .select(['category', (eb) => eb.fn.countAll<number>().as('n')])
            .where('received_on', '>=', firstDay)
            .where('received_on', '<=', lastDay)
            .groupBy('category')
            .orderBy('category'),
        ),
        db.all(
          q
            .selectFrom('complaints')
            .select(['outcome', (eb) => eb.fn.countAll<number>().as('n')])
            .where('resolved_on', '>=', firstDay)
            .where('resolved_on', '<=', lastDay)
            .groupBy('outcome')
            .orderBy('outcome'),
        ),
        db.all(
          q
            .selectFrom('complaints')
            .select(['referred_to', (eb) => eb.fn.countAll<number>().as('n')])
            .where('referred_to', 'is not', null)
            .where('resolved_on', '>=', firstDay)
            .where('resolved_on', '<=', lastDay)
            .groupBy('referred_to')
            .orderBy('referred_to'),
        ),
        db.all(
          q
            .selectFrom('complaints')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('received_on', '<=', lastDay)
            .where((eb) => eb.or([eb('resolved_on', 'is', null), eb('resolved_on', '>', lastDay)])),
        ),
      ]);
      return {
        received: received.map((r) => ({ category: r.category, count: Number(r.n) })),
        resolved: resolved.map((r) => ({ outcome: r.outcome ?? '', count: Number(r.n) })),
        referred: referred.map((r) => ({ body: r.referred_to ?? '', count: Number(r.n) })),
        openAtEnd: Number(open[0]?.n ?? 0),
      };
    },
  };
}

function rowOf(r: StoredRule94): Rule94ReportsTable {
  return {
    period: r.period,
    state: r.state,
    figures: JSON.stringify(r.figures),
    answers: JSON.stringify(r.answers),
    made_at: r.madeAt,
    made_by: r.madeBy,
    counted_at: r.countedAt,
    signed_by: r.signedBy,
    signed_at: r.signedAt,
    sha256: r.sha256,
    version: r.version,
  };
}

function reportOf(r: Rule94ReportsTable): StoredRule94 {
  return {
    period: r.period,
    state: r.state === 'signed' ? 'signed' : 'draft',
    figures: JSON.parse(r.figures) as Rule94Figure[],
    answers: JSON.parse(r.answers) as Answers,
    madeAt: r.made_at,
    madeBy: r.made_by,
    countedAt: r.counted_at,
    signedBy: r.signed_by,
    signedAt: r.signed_at,
    sha256: r.sha256,
    version: Number(r.version),
  };
}
