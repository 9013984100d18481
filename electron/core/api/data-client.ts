import { createHash } from 'node:crypto';
import { dataApi } from '../../../shared/schemas/data-api.js';
import type { UnknownValue } from '../../../shared/schemas/parse.js';
import { ApiError } from './errors.js';
import { ApiHttp, type HttpOptions } from './http.js';

/**
 * Typed client of the intermediary's Data API: every list endpoint, pages followed through
 * links.next on the same origin, records parsed with the shared schemas. Each record gets a stable
 * key (its own id where it has one, otherwise a hash of what identifies it), so re-syncs upsert.
 */
type Json = Record<string, unknown>;

export const DATA_KINDS = {
  accounts: { path: 'data/banking/accounts', collection: 'accounts', schema: 'BankingAccountList', key: (r: Json) => String(r.accountId) },
  balances: { path: 'data/banking/balances', collection: 'balances', schema: 'BankingBalanceList', key: (r: Json) => String(r.accountId) },
  transactions: {
    path: 'data/banking/transactions',
    collection: 'transactions',
    schema: 'BankingTransactionList',
    key: (r: Json) =>
      String(
        (r.adatree as Json | undefined)?.resourceId ?? r.transactionId ?? hash([r.accountId, r.executionDateTime, r.amount, r.description]),
      ),
  },
  payees: { path: 'data/banking/payees', collection: 'payees', schema: 'BankingPayeeList', key: (r: Json) => String(r.payeeId) },
  directDebits: {
    path: 'data/banking/payments/direct-debits',
    collection: 'directDebitAuthorisations',
    schema: 'BankingDirectDebitList',
    key: (r: Json) => hash([consentOf(r), r.accountId, r.authorisedEntity]),
  },
  scheduledPayments: {
    path: 'data/banking/payments/scheduled',
    collection: 'scheduledPayments',
    schema: 'BankingScheduledPaymentList',
    key: (r: Json) => String(r.scheduledPaymentId),
  },
  customers: {
    path: 'data/common/customers',
    collection: 'customers',
    schema: 'CommonCustomerList',
    key: (r: Json) => `customer:${consentOf(r)}`,
  },
  energyAccounts: {
    path: 'data/energy/accounts',
    collection: 'accounts',
    schema: 'EnergyAccountList',
    key: (r: Json) => String(r.accountId),
  },
  invoices: {
    path: 'data/energy/invoices',
    collection: 'invoices',
    schema: 'EnergyInvoiceList',
    key: (r: Json) => `${String(r.accountId)}:${String(r.invoiceNumber)}`,
  },
  bills: {
    path: 'data/energy/bills',
    collection: 'transactions',
    schema: 'EnergyBillingList',
    key: (r: Json) => hash([r.accountId, r.executionDateTime, r.transactionUType]),
  },
  servicePoints: {
    path: 'data/energy/electricity/servicepoints',
    collection: 'servicePoints',
    schema: 'EnergyServicePointList',
    key: (r: Json) => `${consentOf(r)}:${String(r.servicePointId)}`,
  },
  usage: {
    path: 'data/energy/electricity/usage',
    collection: 'reads',
    schema: 'EnergyUsageList',
    key: (r: Json) => `${String(r.servicePointId)}:${String(r.registerSuffix)}:${String(r.readStartDate)}`,
  },
  products: {
    path: 'data/banking/products',
    collection: 'products',
    schema: 'BankingProductList',
    key: (r: Json) => `${String(r.dataHolderId ?? r.brand)}:${String(r.productId)}`,
  },
} as const;
export type DataKind = keyof typeof DATA_KINDS;

function hash(parts: unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 32);
}
export function consentOf(r: Json): string | null {
  const block = r.adatree as Json | undefined;
  return typeof block?.consentId === 'string' ? block.consentId : null;
}

export interface DataPage {
  records: Json[];
  page: number;
  totalRecords: number;
  unknownValues: UnknownValue[];
}

export class DataClient {
  readonly http: ApiHttp;
  constructor(opts: HttpOptions) {
    this.http = new ApiHttp(opts);
  }

  async *listPages(
    kind: DataKind,
    opts: { consentIds?: string[]; pageSize?: number; startPage?: number; signal?: AbortSignal; query?: Record<string, string> } = {},
  ): AsyncGenerator<DataPage> {
    const spec = DATA_KINDS[kind];
    const schema = { tolerant: dataApi.tolerant[spec.schema], strict: dataApi.strict[spec.schema] };
    const endpoint = `GET /${spec.path}`;
    let url: string | undefined = this.http.url(spec.path, {
      page: opts.startPage ?? 1,
      pageSize: opts.pageSize ?? 1000,
      ...(opts.consentIds ? { consentIds: opts.consentIds } : {}),
      ...opts.query,
    }).href;
    const seen = new Set<string>();
    for (let page = opts.startPage ?? 1; url; page++) {
      if (seen.has(url)) throw new ApiError('Schema', `${endpoint}: links.next repeats`, { endpoint });
      seen.add(url);
      const res = await this.http.request({ method: 'GET', path: url, schema, endpoint, ...(opts.signal ? { signal: opts.signal } : {}) });
      const body = res.data as { data: Record<string, Json[]>; links: { next?: string | null }; meta: { totalRecords: number } };
      yield { records: body.data[spec.collection] ?? [], page, totalRecords: body.meta.totalRecords, unknownValues: res.unknownValues };
      url = body.links.next ? this.http.url(body.links.next).href : undefined;
    }
  }
}
