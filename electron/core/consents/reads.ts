import type { QueryReader } from '../query/query.js';
import type { ConsentStore } from './port.js';

/** The ids asked about per query (a bulk revocation's paste holds up to 10,000). */
const CHUNK = 1000;

/**
 * The consents' reads that mean the same on both engines, written once over the typed query layer
 * (issue 37): which of some ids the store knows, with their status (a bulk revocation's paste), and
 * when a consent was last stored from the intermediary (its detail).
 */
export function consentReads(db: QueryReader): Pick<ConsentStore, 'resolve' | 'syncedAt'> {
  return {
    async resolve(ids) {
      const q = await db.queries();
      const asked = [...new Set(ids)];
      const status = new Map<string, string | null>();
      for (let i = 0; i < asked.length; i += CHUNK) {
        const rows = await db.all(
          q
            .selectFrom('consents')
            .select(['consent_id', 'status'])
            .where('consent_id', 'in', asked.slice(i, i + CHUNK)),
        );
        for (const r of rows) status.set(r.consent_id, r.status);
      }
      // In the order asked, each time it was asked.
      const known: { consentId: string; status: string | null }[] = [];
      const unknown: string[] = [];
      for (const id of ids) {
        if (status.has(id)) known.push({ consentId: id, status: status.get(id)! });
        else unknown.push(id);
      }
      return { known, unknown };
    },

    async syncedAt(consentId) {
      const q = await db.queries();
      const [row] = await db.all(q.selectFrom('consents').select('synced_at').where('consent_id', '=', consentId));
      return row?.synced_at ?? null;
    },
  };
}
