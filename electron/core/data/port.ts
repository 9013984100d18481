import type {
  ChannelInput,
  ChannelOutput,
  DataView,
  ProductFilter,
  StoredDataConsentMeta,
  TransactionFilter,
} from '../../../shared/ipc/contract.js';

/**
 * The data and products domain's storage port: the Data API records cached per consent (a window at
 * a time, never a whole kind), the product catalogue with every version seen, and CDR retention
 * (deletion or de-identification of an ended consent's data). No engine in the words.
 */
export type DataKindListing = ChannelOutput<'data:list'>;
export type ProductDetail = ChannelOutput<'products:get'>;
type DataRecordRow = ChannelOutput<'data:records'>['rows'][number];
type ProductRow = ChannelOutput<'products:list'>['rows'][number];

/** What retention did to one consent's data. */
export interface RetentionResult {
  consentId: string;
  action: 'deleted' | 'de-identified';
  records: number;
  kinds: string[];
}

/** One line of the retention log (the data itself is gone). */
export interface RetentionEntry {
  consentId: string;
  action: string;
  records: number;
  kinds: string;
  reason: string;
  at: string;
}

export interface RecordsInput {
  consentId: string;
  kind: DataView;
  filter?: TransactionFilter | undefined;
}

export interface DataStore {
  /** Raw records of one kind, a page at a time (the older data:list channel). */
  list(opts: { kind: ChannelInput<'data:list'>['kind']; consentId?: string; page: number; pageSize: number }): Promise<DataKindListing>;
  /** The consents that have data (or had it before retention), for the data browser's navigation. */
  consents(input: ChannelInput<'data:consents'>): Promise<ChannelOutput<'data:consents'>>;
  groups(by: 'consumer' | 'holder', search?: string): Promise<ChannelOutput<'data:groups'>>;
  /** What the store holds of one consent's data: kinds, counts, when fetched, what retention did. */
  meta(consentId: string): Promise<StoredDataConsentMeta>;
  /** A window of one kind of one consent's records (transactions filtered and searched). */
  records(input: RecordsInput & { offset: number; limit: number }): Promise<ChannelOutput<'data:records'>>;
  /** Every record of a view, a window at a time (exports). */
  windows(input: RecordsInput): AsyncIterable<DataRecordRow[]>;
  /** How many records of each kind one consent has, and when they were fetched (the consent detail). */
  collectionsFor(consentId: string): Promise<{ kind: string; count: number; fetchedAt: string | null }[]>;
  products(filter: ProductFilter, offset: number, limit: number): Promise<ChannelOutput<'products:list'>>;
  product(recordId: string): Promise<ProductDetail | undefined>;
  productVersions(recordId: string, hashes: string[]): Promise<ChannelOutput<'products:versions'>>;
  /** Every product of a filter, a window at a time (exports). */
  productWindows(filter: ProductFilter): AsyncIterable<ProductRow[]>;
  /**
   * Deletes or de-identifies the data of every ended consent by its post-usage action, and records
   * each in the retention log and the audit log (as `operator`), one consent per transaction.
   */
  applyRetention(operator: string): Promise<RetentionResult[]>;
  retentionLog(consentId?: string): Promise<RetentionEntry[]>;
}
