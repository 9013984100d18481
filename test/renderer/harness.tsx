import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { openCache } from '../../electron/core/cache/database.js';
import { ConsentsRepo } from '../../electron/core/cache/consents-repo.js';
import { ConsentQuery } from '../../electron/core/cache/consent-query.js';
import { createRouter, type Handlers } from '../../electron/ipc/router.js';
import type { AppStatus } from '../../shared/ipc/contract.js';
import { ClientProvider } from '../../renderer/src/bridge/ClientContext.js';
import { createConsoleClient, type ConsoleClient } from '../../renderer/src/bridge/client.js';
import type { Transport } from '../../renderer/src/bridge/transport.js';
import { theme } from '../../renderer/src/app/theme.js';
import { createConsentGenerator } from '../../electron/sandbox/consents.js';
import { emptySyncSummary } from '../helpers/summaries.js';
import { testHandlers } from '../helpers/handlers.js';

/**
 * Renders UI against the real typed client, router and consent repository (SQLite in memory),
 * so a component test exercises the same contract checks as the app; only the transport is local.
 */
export function memoryClient(
  consentCount: number,
  overrides: Partial<Handlers> = {},
): { client: ConsoleClient; calls: { channel: string; input: unknown }[] } {
  const db = openCache(':memory:');
  const repo = new ConsentsRepo(db);
  const query = new ConsentQuery(db);
  const gen = createConsentGenerator(5, consentCount);
  repo.upsertPage(
    Array.from({ length: consentCount }, (_, i) => gen.at(i)),
    '2026-11-01T00:00:00.000Z',
  );
  const status: AppStatus = {
    appVersion: '9.9.9',
    host: 'browser',
    profile: { id: 'sandbox', name: 'Embedded sandbox', environment: 'sandbox' },
    lastSyncAt: new Date(Date.now() - 5 * 60_000).toISOString(),
    lastSyncError: null,
    online: true,
    syncing: false,
    consentCount,
    keyStorage: { kind: 'key-file', description: 'Secrets are encrypted with a key file readable only by your user account.' },
  };
  const router = createRouter({
    handlers: testHandlers({
      'app:status': async () => status,
      'consents:list': async (input) => ({ rows: query.list(input) }),
      'consents:count': async ({ filter }) => query.count(filter),
      'consents:options': async () => query.options(),
      'sync:start': async () => emptySyncSummary(),
      ...overrides,
    }),
  });
  const calls: { channel: string; input: unknown }[] = [];
  const transport: Transport = {
    kind: 'browser',
    invoke: (channel, input) => {
      calls.push({ channel, input });
      // A structured clone, as a real transport would do: no shared object references.
      return router.handle(channel, structuredClone(input), true);
    },
    subscribe: () => () => undefined,
    onConnectionChange: (listener) => {
      listener('connected');
      return () => undefined;
    },
  };
  return { client: createConsoleClient(transport), calls };
}

export function renderWithClient(ui: ReactNode, client: ConsoleClient) {
  const queries = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <MantineProvider theme={theme}>
      <QueryClientProvider client={queries}>
        <ClientProvider client={client}>{ui}</ClientProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
}
