import { describe, expect, it } from 'vitest';
import { normalizePayload } from '../../shared/banking/index.js';
import { ProductDetail } from '../../shared/schemas/banking-product.js';
import { dataApi, parseTolerant } from '../../shared/schemas/index.js';
import { useSandbox } from '../helpers/sandbox-client.js';
import { tokenFor } from '../helpers/temp.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- API bodies are loose JSON */

const api = useSandbox({ seed: 13, consents: 160, legacyHolders: 1 });

const ENDPOINTS = [
  ['/data/banking/accounts', 'accounts', 'BankingAccountList', 'bank:accounts.basic:read'],
  ['/data/banking/balances', 'balances', 'BankingBalanceList', 'bank:accounts.basic:read'],
  ['/data/banking/transactions', 'transactions', 'BankingTransactionList', 'bank:transactions:read'],
  ['/data/banking/payees', 'payees', 'BankingPayeeList', 'bank:payees:read'],
  ['/data/banking/payments/direct-debits', 'directDebitAuthorisations', 'BankingDirectDebitList', 'bank:regular_payments:read'],
  ['/data/banking/payments/scheduled', 'scheduledPayments', 'BankingScheduledPaymentList', 'bank:regular_payments:read'],
  ['/data/common/customers', 'customers', 'CommonCustomerList', 'common:customer.basic:read'],
  ['/data/energy/accounts', 'accounts', 'EnergyAccountList', 'energy:accounts.basic:read'],
  ['/data/energy/invoices', 'invoices', 'EnergyInvoiceList', 'energy:billing:read'],
  ['/data/energy/bills', 'transactions', 'EnergyBillingList', 'energy:billing:read'],
  ['/data/energy/electricity/servicepoints', 'servicePoints', 'EnergyServicePointList', 'energy:electricity.servicepoints.basic:read'],
  ['/data/energy/electricity/usage', 'reads', 'EnergyUsageList', 'energy:electricity.usage:read'],
] as const;

async function everything(path: string, collection: string, query = ''): Promise<any[]> {
  const out: any[] = [];
  for (let page = 1; ; page++) {
    const r = await api.get(`${path}?pageSize=1000&page=${page}${query}`);
    expect(r.status).toBe(200);
    out.push(...r.json.data[collection]);
    if (!r.json.links.next) return out;
  }
}

describe('Data API records', () => {
  it.each(ENDPOINTS)(
    '%s: records that fit the shared schemas, each joined to an ACTIVE consent whose scopes allow it',
    async (path, collection, schema, scope) => {
      const first = await api.get(`${path}?pageSize=1000`);
      const parsed = parseTolerant({ tolerant: dataApi.tolerant[schema], strict: dataApi.strict[schema] }, first.json);
      expect(parsed.ok, JSON.stringify(!parsed.ok && parsed.error)).toBe(true);
      if (parsed.ok) expect(parsed.unknownValues).toEqual([]);
      const records = await everything(path, collection);
      expect(records.length).toBeGreaterThan(0);
      const consents = new Map((await api.allConsents()).map((c) => [c.consentId, c]));
      for (const r of records) {
        const c = consents.get(r.adatree.consentId);
        expect(r.adatree).toEqual({
          ...r.adatree,
          consentId: c.consentId,
          consumerId: c.consumerId,
          cdrArrangementId: c.cdrArrangementId,
          dataHolderBrandId: c.dataHolderBrandId,
          useCaseId: c.useCase.id,
        });
        expect(c.status).toBe('ACTIVE');
        expect(c.useCase.scopes.map((s: any) => s.id)).toContain(scope);
      }
    },
  );

  it('serves the same records whatever the page size', async () => {
    const big = await everything('/data/banking/transactions', 'transactions');
    const small: any[] = [];
    for (let page = 1; ; page++) {
      const r = await api.get(`/data/banking/transactions?pageSize=7&page=${page}`);
      small.push(...r.json.data.transactions);
      if (!r.json.links.next) break;
    }
    expect(JSON.stringify(small)).toBe(JSON.stringify(big));
  });

  it('filters by consent, arrangement, consumer, data holder and account ids', async () => {
    const all = await everything('/data/banking/transactions', 'transactions');
    const one = all[Math.floor(all.length / 2)];
    const byConsent = await everything('/data/banking/transactions', 'transactions', `&consentIds=${one.adatree.consentId}`);
    expect(byConsent).toEqual(all.filter((t) => t.adatree.consentId === one.adatree.consentId));
    expect(await everything('/data/banking/transactions', 'transactions', `&cdrArrangementIds=${one.adatree.cdrArrangementId}`)).toEqual(
      byConsent,
    );
    expect(
      await everything('/data/banking/transactions', 'transactions', `&consumerIds=${encodeURIComponent(one.adatree.consumerId)}`),
    ).toEqual(all.filter((t) => t.adatree.consumerId === one.adatree.consumerId));
    expect(await everything('/data/banking/transactions', 'transactions', `&dataHolderBrandIds=${one.adatree.dataHolderBrandId}`)).toEqual(
      all.filter((t) => t.adatree.dataHolderBrandId === one.adatree.dataHolderBrandId),
    );
    expect(await everything('/data/banking/transactions', 'transactions', `&accountIds=${one.accountId}`)).toEqual(
      all.filter((t) => t.accountId === one.accountId),
    );
  });

  it('filters transactions by type, status, amount and time', async () => {
    const all = await everything('/data/banking/transactions', 'transactions');
    expect(await everything('/data/banking/transactions', 'transactions', '&statuses=PENDING')).toEqual(
      all.filter((t) => t.status === 'PENDING'),
    );
    expect(await everything('/data/banking/transactions', 'transactions', '&types=FEE,INTEREST_PAID')).toEqual(
      all.filter((t) => ['FEE', 'INTEREST_PAID'].includes(t.type)),
    );
    expect(await everything('/data/banking/transactions', 'transactions', '&minimumAmount=-10&maximumAmount=100')).toEqual(
      all.filter((t) => Number(t.amount) >= -10 && Number(t.amount) <= 100),
    );
    expect(await everything('/data/banking/transactions', 'transactions', '&oldestTime=2026-10-01T00:00:00Z')).toEqual(
      all.filter((t) => t.executionDateTime >= '2026-10-01'),
    );
    for (const bad of ['minimumAmount=lots', 'oldestTime=yesterday', 'pageSize=1001'])
      expect((await api.get(`/data/banking/transactions?${bad}`)).status).toBe(400);
  });

  it('stops serving a consent’s data once it is revoked', async () => {
    const [account] = (await api.get('/data/banking/accounts?pageSize=1')).json.data.accounts;
    const consentId = account.adatree.consentId;
    expect((await api.call('DELETE', `/consents/${consentId}`)).status).toBe(200);
    expect((await api.get(`/data/banking/accounts?consentIds=${consentId}`)).json.meta.totalRecords).toBe(0);
  });

  it('answers 401 without a token and 403 without the data scope', async () => {
    expect((await api.call('GET', '/data/banking/accounts', undefined, null)).status).toBe(401);
    const narrow = await tokenFor(api.sandbox.url, { scope: 'data:banking:payees:read' });
    expect((await api.call('GET', '/data/banking/accounts', undefined, narrow)).status).toBe(403);
    expect((await api.call('GET', '/data/banking/payees', undefined, narrow)).status).toBe(200);
    // Products need a token but no particular scope.
    expect((await api.call('GET', '/data/banking/products', undefined, narrow)).status).toBe(200);
  });
});

describe('Data API shapes: 2.0.0 by default, 1.x on request and for legacy data holders', () => {
  it('serves products in the 2.0.0 form, with every fee method, both discount methods, string and text tier bounds, conditions and instalments', async () => {
    const products = (await everything('/data/banking/products', 'products')).filter(
      (p) => p.dataHolderId !== api.sandbox.world.gen.holders[0]!.dataHolderBrandId,
    );
    for (const p of products) expect(ProductDetail.safeParse(p).success).toBe(true);
    const fees = products.flatMap((p) => p.fees ?? []);
    expect(new Set(fees.map((f: any) => f.feeMethodUType))).toEqual(new Set(['fixedAmount', 'rateBased', 'variable']));
    expect(new Set(fees.flatMap((f: any) => f.discounts ?? []).map((d: any) => d.discountMethodUType))).toEqual(
      new Set(['fixedAmount', 'rateBased']),
    );
    const tiers = products.flatMap((p) => [...(p.depositRates ?? []), ...(p.lendingRates ?? [])]).flatMap((r: any) => r.tiers ?? []);
    expect(new Set(tiers.map((t: any) => t.unitOfMeasure))).toEqual(new Set(['DOLLAR', 'MONTH', 'PERCENT']));
    expect(tiers.some((t: any) => Number.isNaN(Number(t.maximumValueString ?? '0')))).toBe(true);
    expect(tiers.some((t: any) => t.applicabilityConditionList?.length)).toBe(true);
    expect(products.some((p) => p.instalments)).toBe(true);
    // Our own output needs no repair: the normaliser leaves it unchanged and has nothing lossy to say.
    const normalized = normalizePayload({ data: { products } });
    expect((normalized.data as any).data.products).toEqual(products);
    expect(normalized.notes.filter((n) => n.kind === 'lossy' || n.kind === 'invalid')).toEqual([]);
  });

  it('serves 1.x shapes for x-v: 1, which the normaliser reads back', async () => {
    const res = await fetch(`${api.sandbox.url}/data/banking/products?pageSize=100`, {
      headers: { authorization: `Bearer ${api.token}`, 'x-v': '1' },
    });
    const legacy = ((await res.json()) as any).data.products;
    const fee = legacy.flatMap((p: any) => p.fees).find((f: any) => f.name === 'Monthly account fee');
    expect(fee).toMatchObject({ amount: expect.any(String) });
    expect(fee).not.toHaveProperty('feeMethodUType');
    const tier = legacy.flatMap((p: any) => p.depositRates ?? []).flatMap((r: any) => r.tiers ?? [])[0];
    expect(typeof tier.minimumValue).toBe('number');
    const back = normalizePayload({ data: { products: legacy } });
    expect(back.records.every((r) => r.shape === 'cds-legacy')).toBe(true);
    for (const p of (back.data as any).data.products) expect(ProductDetail.safeParse(p).success).toBe(true);
  });

  it('serves 1.x shapes from the data holders configured as legacy, without any header', async () => {
    // Pick a data holder that has accounts with fees, and start a sandbox where it is legacy.
    const accounts = await everything('/data/banking/accounts', 'accounts');
    const holderId = accounts.find((a) => a.fees?.length).adatree.dataHolderBrandId;
    const holderIndex = api.sandbox.world.gen.holders.findIndex((h) => h.dataHolderBrandId === holderId);
    const { startSandbox } = await import('../../electron/sandbox/server.js');
    const legacy = await startSandbox({ seed: 13, consents: 160, legacyHolders: holderIndex + 1 });
    try {
      const token = await tokenFor(legacy.url);
      const get = async (p: string) =>
        ((await (await fetch(`${legacy.url}${p}`, { headers: { authorization: `Bearer ${token}` } })).json()) as any).data;
      const products = (await get(`/data/banking/products?dataHolderBrandIds=${holderId}`)).products;
      expect(products.flatMap((p: any) => p.fees ?? []).every((f: any) => !('feeMethodUType' in f))).toBe(true);
      const withFees = (await get(`/data/banking/accounts?pageSize=1000&dataHolderBrandIds=${holderId}`)).accounts.filter(
        (a: any) => a.fees?.length,
      );
      expect(withFees.length).toBeGreaterThan(0);
      for (const a of withFees)
        expect(
          a.fees.every(
            (f: any) =>
              !('feeMethodUType' in f) && ('amount' in f || Object.keys(f).some((k) => /Rate$/.test(k)) || f.feeType === 'VARIABLE'),
          ),
        ).toBe(true);
      // Other holders still serve 2.0.0.
      const other = (await get('/data/banking/products?pageSize=1000')).products.filter(
        (p: any) =>
          p.dataHolderId !== holderId &&
          api.sandbox.world.gen.holders.findIndex((h) => h.dataHolderBrandId === p.dataHolderId) > holderIndex,
      );
      expect(other.length).toBeGreaterThan(0);
      expect(other.flatMap((p: any) => p.fees ?? []).every((f: any) => 'feeMethodUType' in f)).toBe(true);
    } finally {
      await legacy.close();
    }
  });
});
