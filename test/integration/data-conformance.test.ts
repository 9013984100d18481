import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import { load } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox-client.js';
import { tokenFor } from '../helpers/temp.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- the OpenAPI document and API bodies are loose JSON */

/**
 * A conformance client of the intermediary's published Data API document
 * (test/fixtures/adatree-data-1.1.0, 2024-09-24), amended by the Data API 2.0.0 changes of the
 * intermediary's changelog (shared/spec/intermediary-api.md, "Data API 2.0.0 changes"). It is written
 * from the document: for every operation it calls every documented query parameter and checks its
 * effect on what comes back, every page against the operation's response schema, the documented
 * defaults (page size 25, the 90-day transaction window, 24 months of usage), the documented orders
 * and the documented errors (400 with the error list for a value outside a parameter's enum or range).
 *
 * Where the document is silent or contradicts itself, the sandbox's reading is named in READINGS
 * below and in docs/sandbox.md, and tested as such.
 */
const doc = load(readFileSync(new URL('../fixtures/adatree-data-1.1.0/data-v1.1.0.yaml', import.meta.url), 'utf8')) as any;
const schemas = doc.components.schemas;

/** The Data API 2.0.0 changes, from the intermediary's changelog. */
const AMENDMENTS: { changelog: string; apply: () => void }[] = [
  {
    changelog:
      'BankingProductFee | amount, balanceRate, transactionRate, accruedRate, accrualFrequency | feeMethodUType (required), with nested fixedAmount (amount), rateBased (rate), or variable.',
    apply: () => {
      const fee = schemas.BankingProductFee;
      for (const k of ['amount', 'balanceRate', 'transactionRate', 'accruedRate', 'accrualFrequency']) delete fee.properties[k];
      Object.assign(fee.properties, {
        feeMethodUType: { type: 'string', enum: ['fixedAmount', 'rateBased', 'variable'] },
        fixedAmount: { type: 'object', required: ['amount'], properties: { amount: { type: 'string' } } },
        rateBased: { type: 'object' },
        variable: { type: 'object' },
      });
      fee.required = [...fee.required, 'feeMethodUType'];
    },
  },
  {
    changelog:
      'BankingProductDiscount | amount, balanceRate, transactionRate, accruedRate, feeRate | discountMethodUType (required), with nested fixedAmount (amount) or rateBased (rate).',
    apply: () => {
      const d = schemas.BankingProductDiscount;
      for (const k of ['amount', 'balanceRate', 'transactionRate', 'accruedRate', 'feeRate']) delete d.properties[k];
      Object.assign(d.properties, {
        discountMethodUType: { type: 'string', enum: ['fixedAmount', 'rateBased'] },
        fixedAmount: { type: 'object', required: ['amount'], properties: { amount: { type: 'string' } } },
        rateBased: { type: 'object', required: ['rate'], properties: { rate: { type: 'string' } } },
      });
      d.required = [...d.required, 'discountMethodUType'];
    },
  },
  {
    changelog:
      'BankingProductRateTierV3 | minimumValue, maximumValue (numeric), applicabilityConditions (singular) | minimumValueString (required string), maximumValueString (string), applicabilityConditionList (array).',
    apply: () => {
      const t = schemas.BankingProductRateTierV3;
      for (const k of ['minimumValue', 'maximumValue', 'applicabilityConditions']) delete t.properties[k];
      Object.assign(t.properties, {
        minimumValueString: { type: 'string' },
        maximumValueString: { type: 'string' },
        applicabilityConditionList: { type: 'array' },
      });
      t.required = t.required.filter((k: string) => k !== 'minimumValue').concat('minimumValueString');
    },
  },
  {
    // The 2.0.0 fee and discount shapes are CDS's BankingProductFeeV2 / BankingProductDiscountV2
    // (docs/sandbox.md): their type enums come with them, read from the CDS JSON Schemas.
    changelog:
      'Clients must: 1. Read fee and discount amounts through the method discriminator (the CDS V2 fee and discount, with their types).',
    apply: () => {
      const cds = (name: string) =>
        JSON.parse(readFileSync(new URL(`../fixtures/cds-json-schema-1.35.0/${name}.json`, import.meta.url), 'utf8'));
      schemas.BankingProductFee.properties.feeType.enum = cds('BankingProductFeeV2').properties.feeType.enum;
      schemas.BankingProductDiscount.properties.discountType.enum = cds('BankingProductDiscountV2').properties.discountType.enum;
      // Lending rates likewise: CDS's BankingProductLendingRateV3 (BALANCE_TRANSFER, UNCONSTRAINED, OTHER).
      const lending = cds('BankingProductLendingRateV3').properties;
      for (const k of ['lendingRateType', 'loanPurpose', 'repaymentType'])
        schemas.BankingProductLendingRateV2.properties[k].enum = lending[k].enum;
    },
  },
  {
    // The account detail of the 2.0.0 shapes (CDS BankingAccountDetailV4): a feature's isActivated
    // is ACTIVATED, NOT_ACTIVATED or UNKNOWN, no longer a boolean.
    changelog: 'The breaking changes in 2.0.0 affect only GET /data/banking/accounts and GET /data/banking/products.',
    apply: () =>
      void (schemas.BankingAccountProductFeature.allOf[1].properties.isActivated = {
        type: 'string',
        enum: ['ACTIVATED', 'NOT_ACTIVATED', 'UNKNOWN'],
      }),
  },
  {
    changelog: 'BankingProductDetail | none | instalments (optional, additive).',
    apply: () => void (schemas.BankingProductDetail.allOf[1].properties.instalments = { type: 'object' }),
  },
];
for (const a of AMENDMENTS) a.apply();

/**
 * The readings of the sandbox where the document is silent or contradicts itself (docs/sandbox.md,
 * "Where the Data API document is open").
 */
const READINGS = {
  /** `required: [errors]` on lists that define no `errors` (BankingAccountList and others): not required. */
  undefinedRequired: 'A schema that requires a property it does not define is read without that requirement.',
  /** `customers` has no page parameters but answers LinksPaginated and MetaPaginated. */
  customersPaged: 'GET /data/common/customers pages as the other lists do (page, pageSize, links.next).',
  /** `invoiceIds` "filter results on the invoiceId field", which EnergyInvoice does not have. */
  invoiceIds: 'invoiceIds match the invoiceNumber.',
  /** `billingIds` "filter results on the billingId field", which no billing schema has. */
  billingIds: 'billingIds are refused with 400: no billing transaction carries an id to match.',
  /** Usage "sorted by NMI in ascending order followed by readStartDate in descending order". */
  usageOrder: 'Usage is in that order within each consent; the list is one consent after another.',
  /** The plan filters: documented in 1.1.0; 2.0.0 removed their components ("never used by live endpoints"). */
  planFilters: 'The plan filters apply as 1.1.0 documents them (enums checked); a client should not rely on them.',
} as const;

// Read a `required` naming an undefined property as not required (READINGS.undefinedRequired).
for (const schema of Object.values<any>(schemas))
  if (schema?.required && schema.properties) schema.required = schema.required.filter((k: string) => k in schema.properties);

const ajv = new Ajv({ strict: false, allErrors: true });
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
ajv.addFormat('date-time', (s: string) => ISO.test(s) && !Number.isNaN(Date.parse(s)));
ajv.addFormat('date', (s: string) => /^\d{4}-\d{2}-\d{2}$/.test(s));
ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && Math.abs(n) < 2 ** 31 });
ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
for (const f of ['uri', 'email', 'double', 'float']) ajv.addFormat(f, () => true);
ajv.addSchema({ $id: 'data.yaml', components: doc.components });
const rebase = (schema: unknown): unknown => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"data.yaml#/components/'));
const compiled = new Map<string, ValidateFunction>();

const param = (p: any) => (p.$ref ? doc.components.parameters[p.$ref.split('/').pop()] : p);
const operations = Object.entries<any>(doc.paths).map(([path, ops]) => {
  const op = ops.get;
  const schemaRef: string = op.responses['200'].content['application/json'].schema.$ref;
  const list = schemas[schemaRef.split('/').pop()!];
  const dataSchema = list.properties.data.$ref ? schemas[list.properties.data.$ref.split('/').pop()] : list.properties.data;
  const collection = Object.keys(dataSchema.properties)[0]!;
  return { path, op, collection, params: (op.parameters ?? []).map(param).filter((p: any) => p.in === 'query') as any[] };
});

/** What is wrong with one answer, by the document: [] when it conforms. */
function problems(path: string, status: number, body: unknown): string[] {
  const op = doc.paths[path].get;
  let response = op.responses[String(status)];
  if (!response) return [`GET ${path} answered ${status}; the document lists ${Object.keys(op.responses).join(', ')}`];
  if (response.$ref) response = doc.components.responses[response.$ref.split('/').pop()];
  const schema = response.content?.['application/json']?.schema;
  if (!schema) return [];
  const key = `${path} ${status}`;
  if (!compiled.has(key)) compiled.set(key, ajv.compile(rebase(schema) as object));
  const validate = compiled.get(key)!;
  if (validate(body)) return [];
  return (validate.errors ?? []).slice(0, 5).map((e) => `${key}: ${e.instancePath || '(body)'} ${e.message} ${JSON.stringify(e.params)}`);
}

const api = useSandbox({ seed: 97, consents: 160 });
const results = { checks: 0 };
let fullToken: string;
beforeAll(async () => {
  fullToken = api.token;
});
afterAll(() => console.info(`data conformance: ${results.checks} checks`));

/** One GET, checked against the document (status listed, body valid); the answer for the test to go on. */
async function get(path: string, query = '', expectStatus = 200): Promise<any> {
  const res = await fetch(`${api.sandbox.url}${path}${query ? `?${query}` : ''}`, { headers: { authorization: `Bearer ${fullToken}` } });
  const text = await res.text();
  const body = text ? JSON.parse(text) : undefined;
  results.checks++;
  expect(res.status, `GET ${path}?${query}: ${text.slice(0, 300)}`).toBe(expectStatus);
  if (res.status === 200) expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(problems(path, res.status, body), `GET ${path}?${query} → ${res.status}`).toEqual([]);
  return body;
}

/** Every record of a listing, page by page through links.next (each page validated). */
async function all(path: string, collection: string, query = ''): Promise<any[]> {
  const out: any[] = [];
  let body = await get(path, `pageSize=1000${query ? `&${query}` : ''}`);
  for (;;) {
    out.push(...body.data[collection]);
    if (!body.links.next) break;
    const next = new URL(body.links.next);
    body = await get(path, next.searchParams.toString());
  }
  return out;
}

const EVERYTHING: Record<string, string> = {
  '/data/banking/transactions': 'oldestTime=2000-01-01T00:00:00Z',
  '/data/energy/electricity/usage': 'oldestDate=2000-01-01',
};
const idOf = (r: any) => JSON.stringify(r);
const DAY = 86_400_000;

/** How a parameter reads a record: the value(s) its filter compares. */
const FIELDS: Record<string, (r: any, path: string) => unknown> = {
  useCaseIds: (r) => r.adatree?.useCaseId,
  cdrArrangementIds: (r) => r.adatree?.cdrArrangementId,
  consentIds: (r) => r.adatree?.consentId,
  consumerIds: (r) => r.adatree?.consumerId,
  dataHolderBrandIds: (r, path) =>
    path === '/data/banking/products' ? r.dataHolderId : path === '/data/energy/plans' ? r.brand : r.adatree?.dataHolderBrandId,
  accountIds: (r) => r.accountId ?? r.from?.accountId,
  payeeIds: (r) => r.payeeId,
  productIds: (r) => r.productId,
  planIds: (r) => r.planId,
  servicePointIds: (r) => r.servicePointId,
  invoiceIds: (r) => r.invoiceNumber,
  productCategories: (r) => r.productCategory,
  customerUTypes: (r) => r.customerUType,
  planTypes: (r) => r.type,
  fuelTypes: (r) => r.fuelType,
  types: (r) => r.type,
  statuses: (r) => r.status,
};

describe('the sandbox against the published Data API document (2.0.0 changes applied)', () => {
  it.each(operations.map((o) => [o.path, o] as const))('%s: schema on every page, paging, defaults and errors', async (path, o) => {
    const everything = await all(path, o.collection, EVERYTHING[path]);
    expect(everything.length, `${path} serves records`).toBeGreaterThan(0);
    const pages = o.params.some((p) => p.name === 'pageSize') || path === '/data/common/customers'; // READINGS.customersPaged
    if (pages) {
      // The default page size is 25; links and meta agree with the count.
      const first = await get(path, EVERYTHING[path] ?? '');
      expect(first.data[o.collection].length).toBe(Math.min(25, everything.length));
      expect(first.meta).toEqual({ totalRecords: everything.length, totalPages: Math.ceil(everything.length / 25) });
      // Pages of 7, each page validated, add up to the whole list in the same order.
      const paged: any[] = [];
      const totalPages = Math.ceil(everything.length / 7);
      for (let page = 1; page <= Math.min(totalPages, 6); page++) {
        const body = await get(path, `page=${page}&pageSize=7${EVERYTHING[path] ? `&${EVERYTHING[path]}` : ''}`);
        expect(body.meta).toEqual({ totalRecords: everything.length, totalPages });
        expect(Boolean(body.links.next)).toBe(page < totalPages);
        expect(Boolean(body.links.prev)).toBe(page > 1);
        expect(new URL(body.links.self).searchParams.get('page')).toBe(String(page));
        expect(new URL(body.links.last).searchParams.get('page')).toBe(String(totalPages));
        paged.push(...body.data[o.collection]);
      }
      expect(paged.map(idOf)).toEqual(everything.slice(0, paged.length).map(idOf));
      // Past the end: an empty page, not an error.
      expect((await get(path, `page=${totalPages + 1}&pageSize=7`)).data[o.collection]).toEqual([]);
      // Outside the documented range or type: 400 with the error list.
      for (const bad of ['pageSize=0', 'pageSize=1001', 'pageSize=ten', 'page=0', 'page=-1', 'page=1.5'])
        expect((await get(path, bad, 400)).errors.length).toBeGreaterThan(0);
    }
    // No token: 401.
    const anonymous = await fetch(`${api.sandbox.url}${path}`);
    expect(anonymous.status).toBe(401);
    results.checks++;
  });

  it.each(operations.map((o) => [o.path, o] as const))(
    '%s: every documented query parameter has its documented effect',
    async (path, o) => {
      const everything = await all(path, o.collection, EVERYTHING[path]);
      const base = EVERYTHING[path] ? `&${EVERYTHING[path]}` : '';
      for (const p of o.params) {
        if (
          [
            'page',
            'pageSize',
            'oldestTime',
            'newestTime',
            'oldestRetrievalTime',
            'newestRetrievalTime',
            'oldestDate',
            'newestDate',
            'minimumAmount',
            'maximumAmount',
            'isOwned',
            'openStatus',
            'effective',
            'updatedSince',
          ].includes(p.name)
        )
          continue; // below, each with its own semantics
        if (p.name === 'productCategories' && path.startsWith('/data/banking/payments/')) continue; // by the account, below
        if (p.name === 'billingIds') {
          // READINGS.billingIds
          expect((await get(path, `billingIds=anything${base}`, 400)).errors[0].detail).toMatch(/billingId/);
          continue;
        }
        const field = FIELDS[p.name]!;
        expect(field, `${path}: how ${p.name} reads a record`).toBeDefined();
        const enumValues: string[] | undefined = p.schema.items?.enum ?? p.schema.enum;
        if (enumValues) {
          // Each value keeps exactly the records with it; together they partition what has one.
          let sum = 0;
          for (const v of enumValues) {
            const got = await all(path, o.collection, `${p.name}=${v}${base}`);
            expect(
              got.every((r) => field(r, path) === v),
              `${path} ${p.name}=${v}`,
            ).toBe(true);
            expect(got.length, `${path} ${p.name}=${v}`).toBe(everything.filter((r) => field(r, path) === v).length);
            sum += got.length;
          }
          expect(sum).toBe(everything.filter((r) => enumValues.includes(field(r, path) as string)).length);
          // Two values at once: the union.
          const two = await all(path, o.collection, `${p.name}=${enumValues[0]},${enumValues[1]}${base}`);
          expect(two.length).toBe(everything.filter((r) => [enumValues[0], enumValues[1]].includes(field(r, path) as string)).length);
          // A value outside the enum: 400, not an empty list.
          expect((await get(path, `${p.name}=NOT_A_${p.name.toUpperCase()}${base}`, 400)).errors[0].detail).toMatch(new RegExp(p.name));
          continue;
        }
        // An id: the records that carry it, no other; an unknown one, none.
        const values = [...new Set(everything.map((r) => field(r, path)).filter((v) => typeof v === 'string'))] as string[];
        expect(values.length, `${path}: records carry ${p.name}`).toBeGreaterThan(0);
        const pick = [values[0]!, values[values.length - 1]!];
        const got = await all(path, o.collection, `${p.name}=${pick.join(',')}${base}`);
        expect(got.map(idOf).sort(), `${path} ${p.name}`).toEqual(
          everything
            .filter((r) => pick.includes(field(r, path) as string))
            .map(idOf)
            .sort(),
        );
        const repeated = await all(path, o.collection, `${pick.map((v) => `${p.name}=${v}`).join('&')}${base}`);
        expect(repeated.length).toBe(got.length);
        expect(await all(path, o.collection, `${p.name}=not-an-id${base}`)).toEqual([]);
      }
    },
  );

  it('accounts, direct debits and scheduled payments: isOwned and openStatus filter by the account', async () => {
    const accounts = await all('/data/banking/accounts', 'accounts');
    for (const [path, collection] of [
      ['/data/banking/accounts', 'accounts'],
      ['/data/banking/payments/direct-debits', 'directDebitAuthorisations'],
      ['/data/banking/payments/scheduled', 'scheduledPayments'],
    ] as const) {
      const everything = await all(path, collection);
      const accountOf = (r: any) => accounts.find((a) => a.accountId === (r.accountId ?? r.from?.accountId));
      for (const [name, values, read] of [
        ['isOwned', ['true', 'false'], (a: any) => String(a.isOwned)],
        ['openStatus', ['OPEN', 'CLOSED'], (a: any) => a.openStatus],
      ] as const) {
        let sum = 0;
        for (const v of values) {
          const got = await all(path, collection, `${name}=${v}`);
          expect(got.length, `${path} ${name}=${v}`).toBe(everything.filter((r) => read(accountOf(r)) === v).length);
          sum += got.length;
        }
        expect(sum, `${path}: ${name}'s values partition the list`).toBe(everything.length);
        expect((await get(path, `${name}=maybe`, 400)).errors.length).toBe(1);
      }
      expect((await get(path, 'productCategories=NOT_A_CATEGORY', 400)).errors[0].detail).toMatch(/productCategories/);
      if (path !== '/data/banking/accounts') {
        const category = accountOf(everything[0])!.productCategory;
        const got = await all(path, collection, `productCategories=${category}`);
        expect(got.length).toBe(everything.filter((r) => accountOf(r)?.productCategory === category).length);
      }
    }
  });

  it('transactions: the 90-day default window, oldestTime/newestTime, retrieval times, amounts', async () => {
    const path = '/data/banking/transactions';
    const effective = (t: any) => Date.parse(t.postingDateTime ?? t.executionDateTime);
    const everything = await all(path, 'transactions', 'oldestTime=2000-01-01T00:00:00Z');
    const newest = Math.max(...everything.map(effective));
    // Absent, oldestTime is newest-time minus 90 days, and newestTime now.
    const defaulted = await all(path, 'transactions');
    const now = Math.max(newest, ...defaulted.map(effective));
    expect(defaulted.length).toBeGreaterThan(0);
    expect(defaulted.length).toBeLessThan(everything.length);
    expect(defaulted.length).toBe(everything.filter((t) => effective(t) >= now - 90 * DAY - 60_000).length);
    // Given newestTime, the default window ends there.
    const mid = new Date(newest - 200 * DAY).toISOString();
    const windowed = await all(path, 'transactions', `newestTime=${mid}`);
    expect(windowed.length).toBe(
      everything.filter((t) => effective(t) <= Date.parse(mid) && effective(t) >= Date.parse(mid) - 90 * DAY).length,
    );
    // Both given, in another zone's notation: at or after, at or before.
    const from = new Date(newest - 400 * DAY);
    const to = new Date(newest - 100 * DAY);
    const local = (d: Date) => new Date(d.getTime() + 10 * 3600_000).toISOString().replace('Z', '+10:00');
    const between = await all(
      path,
      'transactions',
      `oldestTime=${encodeURIComponent(local(from))}&newestTime=${encodeURIComponent(local(to))}`,
    );
    expect(between.length).toBe(everything.filter((t) => effective(t) >= from.getTime() && effective(t) <= to.getTime()).length);
    expect(between.length).toBeGreaterThan(0);
    // Retrieval times: a consent created recently had its history retrieved at its creation.
    const late = await all(
      path,
      'transactions',
      `oldestTime=2000-01-01T00:00:00Z&oldestRetrievalTime=${new Date(now + DAY).toISOString()}`,
    );
    expect(late).toEqual([]);
    const retrieved = await all(
      path,
      'transactions',
      `oldestTime=2000-01-01T00:00:00Z&newestRetrievalTime=${new Date(now + DAY).toISOString()}`,
    );
    expect(retrieved.length).toBe(everything.length);
    // Amounts: at or above, at or below.
    const min = await all(path, 'transactions', 'oldestTime=2000-01-01T00:00:00Z&minimumAmount=100');
    expect(min.length).toBe(everything.filter((t) => Number(t.amount) >= 100).length);
    const max = await all(path, 'transactions', 'oldestTime=2000-01-01T00:00:00Z&maximumAmount=-50.5');
    expect(max.length).toBe(everything.filter((t) => Number(t.amount) <= -50.5).length);
    for (const bad of [
      'oldestTime=yesterday',
      'newestTime=2026-13-01T00:00:00Z',
      'oldestRetrievalTime=1',
      'minimumAmount=ten',
      `oldestTime=${to.toISOString()}&newestTime=${from.toISOString()}`,
    ])
      expect((await get(path, bad, 400)).errors.length).toBe(1);
  });

  it('usage: 24 months to today by default, oldestDate/newestDate, by NMI then newest read first; invoices and bills newest first', async () => {
    const path = '/data/energy/electricity/usage';
    const everything = await all(path, 'reads', 'oldestDate=2000-01-01');
    const defaulted = await all(path, 'reads');
    // The sandbox's reads are of the last 30 days: all inside the default 24 months to today.
    expect(defaulted.map(idOf)).toEqual(everything.map(idOf));
    const days = [...new Set(everything.map((r) => r.readStartDate as string))].sort();
    const [from, to] = [days[5]!, days[10]!];
    const between = await all(path, 'reads', `oldestDate=${from}&newestDate=${to}`);
    expect(between.length).toBe(everything.filter((r) => r.readStartDate >= from && r.readStartDate <= to).length);
    const upTo = await all(path, 'reads', `newestDate=${to}`);
    expect(upTo.length).toBe(everything.filter((r) => r.readStartDate <= to).length);
    for (const bad of ['oldestDate=2026-02-30', 'newestDate=today', `oldestDate=${to}&newestDate=${from}`])
      expect((await get(path, bad, 400)).errors.length).toBe(1);
    // READINGS.usageOrder: within each consent, NMI ascending, then readStartDate descending.
    const byConsent = new Map<string, any[]>();
    for (const r of everything) byConsent.set(r.adatree.consentId, [...(byConsent.get(r.adatree.consentId) ?? []), r]);
    for (const reads of byConsent.values())
      for (let i = 1; i < reads.length; i++) {
        const [a, b] = [reads[i - 1], reads[i]];
        expect(a.servicePointId < b.servicePointId || (a.servicePointId === b.servicePointId && a.readStartDate >= b.readStartDate)).toBe(
          true,
        );
      }
    const invoices = await all('/data/energy/invoices', 'invoices');
    const bills = await all('/data/energy/bills', 'transactions');
    for (const [list, key] of [
      [invoices, 'issueDate'],
      [bills, 'executionDateTime'],
    ] as const) {
      const byAccount = new Map<string, any[]>();
      for (const r of list) byAccount.set(r.accountId, [...(byAccount.get(r.accountId) ?? []), r]);
      for (const rs of byAccount.values()) for (let i = 1; i < rs.length; i++) expect(rs[i - 1][key] >= rs[i][key]).toBe(true);
    }
  });

  it('plans: every filter of 1.1.0 (planIds, planTypes, fuelTypes, effective, updatedSince) and paging', async () => {
    const path = '/data/energy/plans';
    const everything = await all(path, 'plans');
    const current = await all(path, 'plans', 'effective=CURRENT');
    const future = await all(path, 'plans', 'effective=FUTURE');
    const now = Date.now();
    expect(current.length + future.length).toBe(everything.length);
    for (const p of current) expect(!p.effectiveFrom || Date.parse(p.effectiveFrom) <= now).toBe(true);
    for (const p of future) expect(Date.parse(p.effectiveFrom)).toBeGreaterThan(now);
    const since = everything.map((p) => p.lastUpdated).sort()[Math.floor(everything.length / 2)];
    const updated = await all(path, 'plans', `updatedSince=${since}`);
    expect(updated.length).toBe(everything.filter((p) => Date.parse(p.lastUpdated) >= Date.parse(since)).length);
    expect((await get(path, 'effective=SOON', 400)).errors.length).toBe(1);
    expect((await get(path, 'updatedSince=last-week', 400)).errors.length).toBe(1);
  });

  it('a token without the operation’s scope: 403', async () => {
    const narrow = await tokenFor(api.sandbox.url, { scope: 'data:banking:accounts:read' });
    const res = await fetch(`${api.sandbox.url}/data/banking/transactions`, { headers: { authorization: `Bearer ${narrow}` } });
    expect(res.status).toBe(403);
    expect(Object.keys(doc.paths['/data/banking/transactions'].get.responses)).toContain('403');
  });

  it('names its readings of the document in docs/sandbox.md', () => {
    const text = readFileSync(new URL('../../docs/sandbox.md', import.meta.url), 'utf8');
    for (const reading of Object.values(READINGS)) expect(text, reading).toContain(reading);
  });
});
