import type { Complaint, ComplaintFilter } from '../../../shared/ipc/contract.js';
import type { ComplaintFields } from '../../../shared/complaints/complaints.js';
import { isUniqueViolation, type Queries, type QueryRunner } from '../query/query.js';
import type { ComplaintsTable } from '../query/schema.js';
import type { ComplaintStore, NewComplaint } from './port.js';

/**
 * The complaints register's store, written once for SQLite and PostgreSQL over the typed query
 * layer (query/query.ts): each query below compiles to either engine's SQL, and each write lands
 * with its audit entry in one transaction. The storage contract suites run it on both engines.
 */
export function complaintStore(db: QueryRunner): ComplaintStore {
  const filtered = (q: Queries, f: ComplaintFilter) => {
    let query = q.selectFrom('complaints');
    if (f.consentId !== undefined) query = query.where('consent_id', '=', f.consentId);
    if (f.consumerId !== undefined) query = query.where('consumer_id', '=', f.consumerId);
    if (f.status === 'open') query = query.where('resolved_on', 'is', null);
    if (f.status === 'resolved') query = query.where('resolved_on', 'is not', null);
    if (f.category !== undefined) query = query.where('category', '=', f.category);
    if (f.receivedFrom !== undefined) query = query.where('received_on', '>=', f.receivedFrom);
    if (f.receivedTo !== undefined) query = query.where('received_on', '<=', f.receivedTo);
    return query;
  };

  const byId = async (id: string) => {
    const q = await db.queries();
    return (await db.all(q.selectFrom('complaints').selectAll().where('id', '=', id)))[0];
  };

  return {
    async list(filter, offset, limit) {
      const q = await db.queries();
      const [rows, count] = await Promise.all([
        db.all(filtered(q, filter).selectAll().orderBy('received_on', 'desc').orderBy('number', 'desc').offset(offset).limit(limit)),
        db.all(filtered(q, filter).select((eb) => eb.fn.countAll<number>().as('n'))),
      ]);
      return { rows: rows.map(complaintOf), total: Number(count[0]?.n ?? 0) };
    },

    async get(id) {
      const row = await byId(id);
      return row && complaintOf(row);
    },

    async record(c: NewComplaint, audit) {
      const q = await db.queries();
      // The next number in the register; two servers numbering at once: the second tries again.
      for (let attempt = 0; ; attempt++) {
        const insert = q
          .insertInto('complaints')
          .values((eb) => ({
            ...columnsOf(c.fields),
            id: c.id,
            number: eb.selectFrom('complaints').select(eb(eb.fn.coalesce(eb.fn.max('number'), eb.lit(0)), '+', 1).as('next')),
            created_at: c.at,
            created_by: c.by,
            updated_at: c.at,
            updated_by: c.by,
            version: 1,
          }))
          .returningAll();
        try {
          const { rows } = await db.audited(insert, (rows) => (rows[0] ? audit(complaintOf(rows[0])) : null));
          return complaintOf(rows[0]!);
        } catch (e) {
          if (attempt < 5 && isUniqueViolation(e) && !(await byId(c.id))) continue;
          throw e;
        }
      }
    },

    async update(id, version, fields, by, at, audit) {
      const before = await byId(id);
      if (!before) return { outcome: 'missing' };
      if (before.version !== version) return { outcome: 'conflict', current: complaintOf(before) };
      const was = complaintOf(before);
      const q = await db.queries();
      const { rows } = await db.audited(
        q
          .updateTable('complaints')
          .set({ ...columnsOf(fields), updated_at: at, updated_by: by, version: version + 1 })
          .where('id', '=', id)
          .where('version', '=', version)
          .returningAll(),
        (rows) => (rows[0] ? audit(was, complaintOf(rows[0])) : null),
      );
      if (!rows[0]) {
        // Changed between the read and the write (another console, another server).
        const now = await byId(id);
        return now ? { outcome: 'conflict', current: complaintOf(now) } : { outcome: 'missing' };
      }
      return { outcome: 'updated', complaint: complaintOf(rows[0]) };
    },
  };
}

function columnsOf(f: ComplaintFields) {
  return {
    received_on: f.receivedOn,
    channel: f.channel,
    category: f.category,
    description: f.description,
    consent_id: f.consentId,
    consumer_id: f.consumerId,
    outcome: f.outcome,
    resolved_on: f.resolvedOn,
    referred_to: f.referredTo,
  };
}

/** A stored row as the contract's Complaint (the CHECK-free columns read back as the contract's words: the contract checks them on the way out). */
function complaintOf(r: ComplaintsTable): Complaint {
  return {
    id: r.id,
    number: Number(r.number),
    receivedOn: r.received_on,
    channel: r.channel as Complaint['channel'],
    category: r.category as Complaint['category'],
    description: r.description,
    consentId: r.consent_id,
    consumerId: r.consumer_id,
    outcome: r.outcome as Complaint['outcome'],
    resolvedOn: r.resolved_on,
    referredTo: r.referred_to,
    status: r.resolved_on === null ? 'open' : 'resolved',
    createdAt: r.created_at,
    createdBy: r.created_by,
    updatedAt: r.updated_at,
    updatedBy: r.updated_by,
    version: Number(r.version),
  };
}
