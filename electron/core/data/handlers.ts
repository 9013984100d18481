import type { Consent } from '../../../shared/schemas/consent.js';
import { CoreError } from '../errors.js';
import type { ReferenceStore } from '../consents/port.js';
import type { CoreContext, HandlersOf } from '../context.js';
import { writeDataExport, writeProductsExport } from '../exports/data-export.js';
import { stamp } from '../exports/exporter.js';
import { safeFileName } from '../exports/files.js';
import { historyStart, UNKNOWN_HISTORY_DAYS } from './history.js';

type DataChannels =
  | 'data:list'
  | 'data:consents'
  | 'data:groups'
  | 'data:meta'
  | 'data:records'
  | 'data:export'
  | 'products:list'
  | 'products:get'
  | 'products:versions'
  | 'products:export';

/**
 * The period of transactions a consent's data sync asked for (data/history.ts): its history start
 * to its last data sync — the consent's, when later than its transactions' (an incremental sync
 * that found nothing new still read them to that time).
 */
async function heldPeriod(reference: ReferenceStore, consent: Consent, fetchedAt: string, lastSync: string | null) {
  // The use case as last synced (what the sync's bounds were made from), else the consent's copy of it.
  const synced = consent.useCase?.id ? await reference.useCase(consent.useCase.id) : undefined;
  const days = synced?.historicalCollectionPeriodInDays ?? consent.useCase?.historicalCollectionPeriodInDays;
  const assumed = typeof days !== 'number';
  return {
    from: historyStart(consent.created!, days),
    to: lastSync && lastSync > fetchedAt ? lastSync : fetchedAt,
    days: assumed ? UNKNOWN_HISTORY_DAYS : days,
    assumed,
  };
}

/** The data and products domain: the data browser's reads of cached Data API records, the product catalogue, their exports. */
export function dataHandlers(ctx: Pick<CoreContext, 'stores' | 'exports' | 'clock'>): HandlersOf<DataChannels> {
  const data = ctx.stores.data;
  return {
    'data:list': async ({ kind, consentId, page, pageSize }) => data.list({ kind, ...(consentId ? { consentId } : {}), page, pageSize }),
    'data:consents': async (input) => data.consents(input),
    'data:groups': async ({ by, search }) => data.groups(by, search),
    'data:meta': async ({ consentId }) => {
      const meta = await data.meta(consentId);
      const fetched = meta.kinds.find((k) => k.kind === 'transactions')?.fetchedAt ?? null;
      const consent = fetched ? await ctx.stores.consents.get(consentId) : undefined;
      return {
        ...meta,
        history: consent?.created && fetched ? await heldPeriod(ctx.stores.reference, consent, fetched, meta.lastFetchedAt) : null,
      };
    },
    'data:records': async (input) => data.records(input),
    'data:export': async (input) =>
      ctx.exports.start({
        kind: 'export-data',
        title: `Export ${input.kind} of consent ${input.consentId} to ${input.format.toUpperCase()}`,
        name: `${safeFileName(input.kind, input.consentId.slice(0, 12), stamp(ctx.clock()))}.${input.format}`,
        write: (path, job) => writeDataExport(data, input, input.format, path, job),
        target: input.consentId,
        describe: (r) =>
          `${r.rows ?? 0} ${input.kind} records exported as ${input.format.toUpperCase()} (${r.bytes ?? 0} bytes, sha256 ${r.sha256 ?? '?'}); filter ${JSON.stringify(input.filter ?? {})}`,
      }),
    'products:list': async ({ filter, offset, limit }) => data.products(filter, offset, limit),
    'products:get': async ({ recordId }) => {
      const product = await data.product(recordId);
      if (!product) throw new CoreError('NOT_FOUND', `The cache holds no product ${recordId}: sync with Data API records first.`);
      return product;
    },
    'products:versions': async ({ recordId, hashes }) => data.productVersions(recordId, hashes),
    'products:export': async ({ filter, format }) =>
      ctx.exports.start({
        kind: 'export-products',
        title: `Export products to ${format.toUpperCase()}`,
        name: `${safeFileName('products', stamp(ctx.clock()))}.${format}`,
        write: (path, job) => writeProductsExport(data, filter, format, path, job),
        target: null,
        describe: (r) =>
          `${r.rows ?? 0} products exported as ${format.toUpperCase()} (sha256 ${r.sha256 ?? '?'}); filter ${JSON.stringify(filter)}`,
      }),
  };
}
