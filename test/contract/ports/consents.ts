import { describe, expect, it } from 'vitest';
import { GENESIS_HASH } from '../../../electron/core/audit/chain.js';
import { WEBHOOK_FAILURES } from '../../../shared/consents/webhooks.js';
import { withStore, type OpenFixture } from '../fixture.js';
import { sampleWorld, SYNCED_AT } from '../world.js';

/** The consents domain's ports: ConsentStore, ReferenceStore, ActionStore. */
export function consentStoreSuite(open: OpenFixture) {
  const { consents, useCases, holders } = sampleWorld();
  const byId = [...consents].sort((a, b) => (a.consentId < b.consentId ? -1 : 1));

  describe('ConsentStore', () => {
    it(
      'is empty before anything is stored',
      withStore(open, async ({ storage }) => {
        expect(await storage.consents.total()).toBe(0);
        expect(await storage.consents.list({ filter: {}, sort: { field: 'created', direction: 'desc' }, offset: 0, limit: 10 })).toEqual(
          [],
        );
        expect(await storage.consents.get(consents[0]!.consentId)).toBeUndefined();
        expect(await storage.consents.resolve(['nope'])).toEqual({ known: [], unknown: ['nope'] });
      }),
    );

    it(
      'lists windows of a sorted, filtered list and counts them',
      withStore(open, async ({ storage, load, settled }) => {
        await load.consents(consents, SYNCED_AT);
        await settled();
        expect(await storage.consents.total()).toBe(consents.length);
        const window = await storage.consents.list({ filter: {}, sort: { field: 'consentId', direction: 'asc' }, offset: 10, limit: 7 });
        expect(window.map((r) => r.consentId)).toEqual(byId.slice(10, 17).map((c) => c.consentId));
        const desc = await storage.consents.list({ filter: {}, sort: { field: 'created', direction: 'desc' }, offset: 0, limit: 500 });
        expect(desc).toHaveLength(consents.length);
        for (let i = 1; i < desc.length; i++) expect(desc[i - 1]!.created! >= desc[i]!.created!).toBe(true);
        const active = consents.filter((c) => c.status === 'ACTIVE');
        expect(active.length).toBeGreaterThan(0);
        expect((await storage.consents.count({ statuses: ['ACTIVE'] })).total).toBe(active.length);
        const ids = await storage.consents.ids({ statuses: ['ACTIVE'] }, { field: 'consentId', direction: 'asc' }, 5);
        expect(ids).toEqual(
          active
            .map((c) => c.consentId)
            .sort()
            .slice(0, 5),
        );
        const holder = consents[0]!.dataHolderBrandId!;
        expect((await storage.consents.count({ dataHolderBrandIds: [holder] })).total).toBe(
          consents.filter((c) => c.dataHolderBrandId === holder).length,
        );
      }),
    );

    it(
      'finds a consent by its id, its consumer e-mail, and tells known ids from unknown ones',
      withStore(open, async ({ storage, load, settled }) => {
        await load.consents(consents, SYNCED_AT);
        await settled();
        const c = consents.find((x) => x.consumerEmail)!;
        expect(await storage.consents.get(c.consentId)).toEqual(c);
        expect(await storage.consents.syncedAt(c.consentId)).toBe(SYNCED_AT);
        const found = await storage.consents.list({
          filter: { search: c.consumerEmail! },
          sort: { field: 'consentId', direction: 'asc' },
          offset: 0,
          limit: 50,
        });
        expect(found.map((r) => r.consentId)).toContain(c.consentId);
        expect(found.every((r) => r.consumerEmail === c.consumerEmail)).toBe(true);
        expect(await storage.consents.resolve([c.consentId, 'not-a-consent'])).toEqual({
          known: [{ consentId: c.consentId, status: c.status ?? null }],
          unknown: ['not-a-consent'],
        });
        const options = await storage.consents.options();
        expect(options.dataHolders).toContainEqual(
          expect.objectContaining({
            id: c.dataHolderBrandId,
            count: consents.filter((x) => x.dataHolderBrandId === c.dataHolderBrandId).length,
          }),
        );
        expect(options.postUsageActions.reduce((n, o) => n + o.count, 0)).toBe(consents.length);
      }),
    );

    it(
      'finds a consent by any part of what an agent remembers, the matches at a word’s start first',
      withStore(open, async ({ storage, load, settled }) => {
        const like = (id: string, change: Record<string, unknown>) => ({ ...consents[0]!, consentId: id, ...change });
        const a = like('zz-a', { consumerEmail: 'james.zyxsmith@quokka.test', consumerMobileNumber: '+61491570156', externalId: null });
        const b = like('zz-b', { consumerEmail: 'zyxsmith.j@wombat.test', consumerMobileNumber: '+61491000000', externalId: null });
        const c = like('zz-c', {
          consumerEmail: 'jzyxsmith@numbat.test',
          consumerMobileNumber: null,
          externalId: 'CRM-77812',
          useCase: { ...consents[0]!.useCase, name: 'Zyxmortgage helper' },
        });
        await load.consents([...consents, a, b, c], SYNCED_AT);
        await settled();
        const sort = { field: 'consentId', direction: 'asc' } as const;
        const found = async (search: string) => {
          const rows = await storage.consents.list({ filter: { search }, sort, offset: 0, limit: 50 });
          expect((await storage.consents.count({ search })).total, search).toBe(rows.length);
          expect(await storage.consents.ids({ search }, sort, 50), search).toEqual(rows.map((r) => r.consentId));
          // A window deep in the list continues the same order.
          const tail = await storage.consents.list({ filter: { search }, sort, offset: 1, limit: 50 });
          expect(tail, search).toEqual(rows.slice(1));
          return rows.map((r) => r.consentId);
        };
        // The middle of an e-mail: b's starts a word, so it comes first; then a and c in the list's sort.
        expect(await found('zyxsmith')).toEqual(['zz-b', 'zz-a', 'zz-c']);
        expect(await found('ZYXSMITH')).toEqual(['zz-b', 'zz-a', 'zz-c']);
        expect(await found('okka.te')).toEqual(['zz-a']);
        expect(await found('@numbat')).toEqual(['zz-c']);
        // Every word required, each anywhere.
        expect(await found('zyxsmith quokka')).toEqual(['zz-a']);
        // A run of a mobile's digits, however written; from a leading 0 as the number is said at home.
        expect(await found('1570 156')).toEqual(['zz-a']);
        expect(await found('0491 570-156')).toEqual(['zz-a']);
        expect(await found('+61 491')).toEqual(['zz-a', 'zz-b']);
        expect(await found('77812')).toEqual(['zz-c']);
        // One or two characters match only a word's start (anywhere, they would match nearly everything).
        expect(await found('zy')).toEqual(['zz-b', 'zz-c']);
        // The use case's name, a category, only at a word's start.
        expect(await found('zyxmort')).toEqual(['zz-c']);
        expect(await found('mortgage')).toEqual([]);
      }),
    );

    it(
      'lists one customer’s consents by their consumer ids, exactly: not a part of one, not another case',
      withStore(open, async ({ storage, load, settled }) => {
        const like = (id: string, consumerId: string | null) => ({ ...consents[0]!, consentId: id, consumerId });
        const mine = [like('cu-1', 'auth0|Cust-9'), like('cu-2', 'auth0|Cust-9')];
        await load.consents(
          [...consents, ...mine, like('cu-3', 'auth0|cust-9'), like('cu-4', 'auth0|Cust-90'), like('cu-5', null)],
          SYNCED_AT,
        );
        await settled();
        const sort = { field: 'consentId', direction: 'asc' } as const;
        const of = async (consumerIds: string[], also = {}) => {
          const filter = { consumerIds, ...also };
          const rows = (await storage.consents.list({ filter, sort, offset: 0, limit: 50 })).map((r) => r.consentId);
          expect((await storage.consents.count(filter)).total).toBe(rows.length);
          return rows;
        };
        expect(await of(['auth0|Cust-9'])).toEqual(['cu-1', 'cu-2']);
        expect(await of(['auth0|Cust-9', 'auth0|cust-9'])).toEqual(['cu-1', 'cu-2', 'cu-3']);
        expect(await of(['auth0|Cust'])).toEqual([]);
        expect(await of(['auth0|Cust-9'], { statuses: ['NOPE'] })).toEqual([]);
        const someone = consents.find((c) => c.consumerId)!.consumerId!;
        expect(await of([someone])).toEqual(
          consents
            .filter((c) => c.consumerId === someone)
            .map((c) => c.consentId)
            .sort(),
        );
      }),
    );

    it(
      'finds the consents whose webhook deliveries failed in a period, with the other filters and a search',
      withStore(open, async ({ storage, load, settled }) => {
        const { events } = sampleWorld();
        const failed = events.filter((e) => (WEBHOOK_FAILURES as readonly string[]).includes(e.eventType));
        expect(failed.length).toBeGreaterThan(5);
        await load.consents(consents, SYNCED_AT);
        await load.events(events);
        await settled();
        const sort = { field: 'consentId', direction: 'asc' } as const;
        const expected = (from?: string, to?: string, also: (c: (typeof consents)[number]) => boolean = () => true) => {
          const ids = new Set(
            failed
              .filter((e) => (!from || Date.parse(e.timestamp) >= Date.parse(from)) && (!to || Date.parse(e.timestamp) < Date.parse(to)))
              .map((e) => e.consentId),
          );
          return consents
            .filter((c) => ids.has(c.consentId) && also(c))
            .map((c) => c.consentId)
            .sort();
        };
        const listed = async (filter: Parameters<typeof storage.consents.count>[0]) => {
          const rows = (await storage.consents.list({ filter, sort, offset: 0, limit: 500 })).map((r) => r.consentId);
          expect((await storage.consents.count(filter)).total).toBe(rows.length);
          expect(await storage.consents.ids(filter, sort, 500)).toEqual(rows);
          return rows;
        };
        // At any time: every consent with a failure, and none with only deliveries that went through.
        const ever = await listed({ webhookFailures: {} });
        expect(ever).toEqual(expected());
        expect(ever.length).toBeLessThan(consents.length);
        // One day, from local midnight to the next (what "Yesterday" asks): failures of that day only.
        const times = failed.map((e) => e.timestamp).sort();
        const mid = new Date(times[Math.floor(times.length / 2)]!);
        const day = { from: new Date(mid.getTime() - 86_400_000).toISOString(), to: mid.toISOString() };
        const inDay = await listed({ webhookFailures: day });
        expect(inDay).toEqual(expected(day.from, day.to));
        expect(inDay.length).toBeLessThan(ever.length);
        // With a status and a search: all parts together.
        const active = await listed({ webhookFailures: {}, statuses: ['ACTIVE'] });
        expect(active).toEqual(expected(undefined, undefined, (c) => c.status === 'ACTIVE'));
        const c = consents.find((x) => ever.includes(x.consentId) && x.consumerEmail)!;
        const search = c.consumerEmail!.split('@')[0]!;
        expect(await listed({ webhookFailures: {}, search })).toEqual(
          expected(undefined, undefined, (x) => (x.consumerEmail ?? '').toLowerCase().includes(search.toLowerCase())),
        );
        // A period with no failures: nothing.
        expect(await listed({ webhookFailures: { to: '2000-01-01T00:00:00.000Z' } })).toEqual([]);
      }),
    );
  });

  describe('ReferenceStore', () => {
    it(
      'holds the use cases and data holders a sync stored, by id',
      withStore(open, async ({ storage, load }) => {
        expect(await storage.reference.useCases()).toEqual([]);
        await load.reference(useCases, holders);
        expect((await storage.reference.useCases()).map((u) => u.id).sort()).toEqual(useCases.map((u) => u.id).sort());
        expect(await storage.reference.useCase(useCases[0]!.id)).toEqual(useCases[0]);
        expect(await storage.reference.useCase('unknown')).toBeUndefined();
        expect((await storage.reference.dataHolders()).map((h) => h.dataHolderBrandId).sort()).toEqual(
          holders.map((h) => h.dataHolderBrandId).sort(),
        );
        expect(await storage.reference.dataHolder(holders[1]!.dataHolderBrandId)).toMatchObject({ brandName: holders[1]!.brandName });
      }),
    );
  });

  describe('ActionStore', () => {
    it(
      'records an action’s change with its audit entry: a new version of the consent, its events, one chained entry',
      withStore(open, async ({ storage, load, settled }) => {
        await load.consents(consents, SYNCED_AT);
        const before = consents.find((c) => c.status === 'ACTIVE')!;
        const after = { ...before, status: 'REVOKED', revokedAt: '2026-11-02T00:00:00.000Z' };
        const event = { eventId: 'ev-revoked-1', consentId: before.consentId, eventType: 'REVOKED', timestamp: '2026-11-02T00:00:00.000Z' };
        const entry = { operator: 'sam', action: 'revoke', target: before.consentId, reason: 'asked by the consumer', result: 'revoked' };
        const first = await storage.actions.record({ consents: [after], events: [event], audit: entry });
        expect(first).toMatchObject({ ...entry, seq: 1, prevHash: GENESIS_HASH });
        expect(first.hash).toMatch(/^[0-9a-f]{64}$/);
        await settled();
        expect((await storage.consents.get(before.consentId))?.status).toBe('REVOKED');
        expect((await storage.consents.versions(before.consentId, 10)).map((v) => v.consent.status)).toEqual(['ACTIVE', 'REVOKED']);
        expect((await storage.events.forConsent(before.consentId, 100)).map((e) => e.eventType)).toContain('REVOKED');
        expect(await storage.audit.entries({ target: before.consentId })).toEqual([first]);
        // An action that changed nothing else (a failure) is audited on its own, chained to the last.
        const second = await storage.actions.record({ audit: { ...entry, result: 'failed: offline' } });
        expect(second).toMatchObject({ seq: 2, prevHash: first.hash });
        expect(await storage.audit.verify()).toEqual({ ok: true, entries: 2 });
      }),
    );
  });
}
