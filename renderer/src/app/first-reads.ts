import type { QueryClient } from '@tanstack/react-query';
import { mainClient } from '../bridge/main-client.js';
import { filterOf, viewFromParams } from '../features/consents/view.js';
import { BLOCK_SIZE } from '../ui/table/block-size.js';

/**
 * The first screen's reads, sent as soon as the connection opens, while the shell's code and the
 * screen's are still loading: main answers them meanwhile, and the screen renders with its rows
 * rather than asking for them once it has rendered (issue 21). Each goes into the query cache under
 * the key the screen reads it by, so the screen finds it there (or on its way) and asks for nothing
 * more: the settings (the theme, before the first paint), and on the consent list, its count and
 * its first block of rows for the view in the address (features/consents/ConsentsScreen.tsx).
 */
interface FirstRead {
  key: readonly unknown[];
  read: Promise<unknown>;
}

let reads: FirstRead[] | undefined;

/** Sends the first reads for the address's hash ("#/consents?status=ACTIVE"); once. */
export function startFirstReads(hash: string): void {
  if (reads) return;
  const client = mainClient();
  reads = [{ key: ['settings:get'], read: client.settingsGet({}) }];
  const [path, query] = hash.replace(/^#/, '').split('?');
  if (path === '/consents') {
    const view = viewFromParams(new URLSearchParams(query ?? ''));
    const filter = filterOf(view);
    reads.push(
      { key: ['consents:count', filter], read: client.consentsCount({ filter }) },
      {
        key: ['consents:list', filter, view.sort, 'block', 0],
        read: client.consentsList({ filter, sort: view.sort, offset: 0, limit: BLOCK_SIZE }).then((r) => r.rows),
      },
    );
  }
  // Not left unhandled: a read that failed is read again by its screen.
  for (const r of reads) r.read.catch(() => undefined);
}

/** Puts the first reads (sent now, if they were not yet) into the shell's query cache. */
export function seedFirstReads(queries: QueryClient, hash: string): void {
  startFirstReads(hash);
  for (const r of reads ?? []) void queries.prefetchQuery({ queryKey: r.key, queryFn: () => r.read, retry: false });
}
