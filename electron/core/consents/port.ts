import type { ConsentCountOutput, ConsentFilter, ConsentOptionsOutput, ConsentRow, ConsentSort } from '../../../shared/ipc/contract.js';
import type { Consent, ConsentEvent, UseCase } from '../../../shared/schemas/consent.js';
import type { AuditEntry, AuditRecord } from '../audit/port.js';

/**
 * The consents domain's storage ports: what its handlers and actions need of a store, in the
 * domain's words (consents, filters, windows), asynchronous, with nothing of the engine in them.
 * The SQLite adapter (cache/sqlite-storage.ts) implements them today; the storage contract tests
 * (test/contract/) hold any adapter to them.
 */
export interface ConsentStore {
  /** How many consents the store holds. */
  total(): Promise<number>;
  /** A window of a filtered, sorted list. */
  list(input: { filter: ConsentFilter; sort: ConsentSort; offset: number; limit: number }): Promise<ConsentRow[]>;
  count(filter: ConsentFilter): Promise<ConsentCountOutput>;
  /** The values the filters offer (statuses, data holders, use cases… with counts). */
  options(): Promise<ConsentOptionsOutput>;
  /** The ids of a filtered, sorted list, up to `limit` (what a bulk action takes). */
  ids(filter: ConsentFilter, sort: ConsentSort, limit: number): Promise<string[]>;
  /** Which of these ids the store knows (with their status), and which it does not. */
  resolve(ids: readonly string[]): Promise<{ known: { consentId: string; status: string | null }[]; unknown: string[] }>;
  get(consentId: string): Promise<Consent | undefined>;
  /** When the consent was last stored from the intermediary, or null. */
  syncedAt(consentId: string): Promise<string | null>;
  /** Every version of the consent the store has seen, oldest first, the newest `limit`. */
  versions(consentId: string, limit: number): Promise<{ version: number | null; seenAt: string; consent: Consent }[]>;
}

/** The intermediary's reference lists: use cases and data holders. */
export interface DataHolderRef {
  dataHolderBrandId: string;
  brandName: string | null;
  logoUri: string | null;
}
export interface ReferenceStore {
  useCases(): Promise<UseCase[]>;
  combinedUseCases(): Promise<UseCase[]>;
  useCase(id: string): Promise<UseCase | undefined>;
  dataHolders(): Promise<DataHolderRef[]>;
  dataHolder(id: string): Promise<DataHolderRef | undefined>;
}

/** What a staff action changed, as the intermediary now returns it, with its audit entry. */
export interface ActionChange {
  /** The consents re-read after the action (stored as new versions when they changed). */
  consents?: readonly Consent[];
  /** The consents' events re-read after the action (the timeline shows them at once). */
  events?: readonly ConsentEvent[];
  audit: AuditEntry;
}

/** Where actions record what they did: the change and its audit entry, all or nothing. */
export interface ActionStore {
  record(change: ActionChange): Promise<AuditRecord>;
  /**
   * Runs `fn` while no other action on the same key runs, in this process or (team store) on any
   * server of the store: two staff revoking one consent at the same moment act one after the other,
   * and the second sees what the first did.
   */
  exclusive<T>(key: string, fn: () => Promise<T>): Promise<T>;
}
