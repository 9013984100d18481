import { MantineProvider } from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AuditLog } from '../../electron/core/audit/audit-log.js';
import { ConsentQuery } from '../../electron/core/cache/consent-query.js';
import { EventQuery } from '../../electron/core/cache/event-query.js';
import { AuditQuery } from '../../electron/core/audit/audit-query.js';
import { complianceReport } from '../../electron/core/reports/compliance.js';
import { ConsentsRepo } from '../../electron/core/cache/consents-repo.js';
import { DataRepo } from '../../electron/core/cache/data-repo.js';
import { openCache, type Db } from '../../electron/core/cache/database.js';
import { EventsRepo, ReferenceRepo } from '../../electron/core/cache/events-repo.js';
import { readConsentDetail } from '../../electron/core/consent-detail.js';
import { DEFAULT_SETTINGS } from '../../electron/core/settings.js';
import { createRouter, type Handlers } from '../../electron/ipc/router.js';
import { createConsentGenerator } from '../../electron/sandbox/consents.js';
import { World } from '../../electron/sandbox/world.js';
import type { AppStatus, Settings } from '../../shared/ipc/contract.js';
import type { Consent, ConsentEvent } from '../../shared/schemas/consent.js';
import { ClientProvider } from '../../renderer/src/bridge/ClientContext.js';
import { createConsoleClient, type ConsoleClient } from '../../renderer/src/bridge/client.js';
import type { Transport } from '../../renderer/src/bridge/transport.js';
import { cssVariablesResolver, theme } from '../../renderer/src/app/theme.js';
import { ConsentDetailScreen } from '../../renderer/src/features/consent-detail/ConsentDetailScreen.js';
import { ConsentsScreen } from '../../renderer/src/features/consents/ConsentsScreen.js';
import { AuditScreen } from '../../renderer/src/features/audit/AuditScreen.js';
import { EventsScreen } from '../../renderer/src/features/events/EventsScreen.js';
import { OverviewScreen } from '../../renderer/src/features/overview/OverviewScreen.js';
import { ReportsScreen } from '../../renderer/src/features/reports/ReportsScreen.js';
import { SettingsScreen } from '../../renderer/src/features/settings/SettingsScreen.js';
import { UseCasesScreen } from '../../renderer/src/features/use-cases/UseCasesScreen.js';
import { WebhookFailuresScreen } from '../../renderer/src/features/webhooks/WebhookFailuresScreen.js';
import { useSession } from '../../renderer/src/stores/session.js';
import { emptySyncSummary } from '../helpers/summaries.js';
import { testHandlers } from '../helpers/handlers.js';

/**
 * Renders UI against the real typed client, router and cache repositories (SQLite in memory, the
 * sandbox's seeded consents), so a component test exercises the same contract checks and queries as
 * the app; only the transport is local. Actions (which need the intermediary) are overridden per test.
 */
export interface MemoryCache {
  db: Db;
  consents: Consent[];
  repo: ConsentsRepo;
  events: EventsRepo;
  audit: AuditLog;
  reference: ReferenceRepo;
}

export function memoryClient(
  consentCount: number,
  overrides: Partial<Handlers> = {},
  opts: { status?: Partial<AppStatus>; events?: ConsentEvent[]; withSeededEvents?: boolean } = {},
): { client: ConsoleClient; calls: { channel: string; input: unknown }[]; cache: MemoryCache } {
  const db = openCache(':memory:');
  const repo = new ConsentsRepo(db);
  const query = new ConsentQuery(db);
  const events = new EventsRepo(db);
  const audit = new AuditLog(db);
  const reference = new ReferenceRepo(db);
  const data = new DataRepo(db);
  const eventQuery = new EventQuery(db);
  const auditQuery = new AuditQuery(db);
  const gen = createConsentGenerator(5, consentCount);
  const consents = Array.from({ length: consentCount }, (_, i) => gen.at(i));
  repo.upsertPage(consents, '2026-11-01T00:00:00.000Z');
  reference.replaceUseCases(gen.useCases, '2026-11-01T00:00:00.000Z');
  if (opts.events) events.upsertPage(opts.events, (e) => `${e.consentId}-${e.timestamp}`);
  if (opts.withSeededEvents) {
    // The sandbox's own events of the same seeded consents (same seed, count and clock).
    const world = new World({ seed: 5, consents: consentCount });
    events.upsertPage(world.events({}, 0, 1_000_000).events, (e) => `${e.consentId}-${e.timestamp}-${e.eventType}`);
  }
  const status: AppStatus = {
    appVersion: '9.9.9',
    host: 'browser',
    profile: { id: 'sandbox', name: 'Embedded sandbox', environment: 'sandbox', embedded: true },
    lastSyncAt: new Date(Date.now() - 5 * 60_000).toISOString(),
    lastSyncError: null,
    online: true,
    syncing: false,
    consentCount,
    keyStorage: { kind: 'key-file', description: 'Secrets are encrypted with a key file readable only by your user account.' },
    ...opts.status,
  };
  let settings: Settings = DEFAULT_SETTINGS;
  const router = createRouter({
    handlers: testHandlers({
      'app:status': async () => status,
      'consents:list': async (input) => ({ rows: query.list(input) }),
      'consents:count': async ({ filter }) => query.count(filter),
      'consents:options': async () => query.options(),
      'consents:ids': async ({ filter, sort, limit }) => ({ ids: query.ids(filter, sort, limit), total: query.count(filter).total }),
      'consents:resolve': async ({ consentIds }) => query.resolve(consentIds),
      'consents:get': async ({ consentId }) => readConsentDetail({ db, consents: repo, events, audit, reference, data }, consentId),
      'reference:list': async () => ({
        useCases: reference.useCases(),
        combinedUseCases: reference.combinedUseCases(),
        dataHolders: reference.dataHolders(),
      }),
      'settings:get': async () => settings,
      'settings:set': async (change) => (settings = { ...settings, ...(change as Partial<Settings>) }),
      'jobs:list': async () => [],
      'events:list': async ({ filter, offset, limit }) => ({ rows: eventQuery.list({ filter, offset, limit }) }),
      'events:count': async ({ filter }) => eventQuery.count(filter),
      'events:days': async ({ filter, days }) => eventQuery.days(filter, days),
      'webhooks:summary': async ({ filter }) => ({
        consentsAffected: eventQuery.consentsWithFailures(filter),
        byMessage: eventQuery.failuresByMessage(filter),
        byConsent: eventQuery.failuresByConsent(filter, 500),
      }),
      'audit:query': async ({ filter, offset, limit }) => auditQuery.list(filter, offset, limit),
      'audit:options': async () => auditQuery.options(),
      'audit:verify': async () => audit.verify(),
      'reports:compliance': async (period) => complianceReport(db, period, new Date(), eventQuery),
      'sync:last': async () => null,
      'operator:get': async () => ({ account: 'tester', displayName: 'Tess Tester' }),
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
  return { client: createConsoleClient(transport), calls, cache: { db, consents, repo, events, audit, reference } };
}

function Providers({ client, children }: { client: ConsoleClient; children: ReactNode }) {
  const queries = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <DatesProvider settings={{ firstDayOfWeek: 1 }}>
        <Notifications />
        <QueryClientProvider client={queries}>
          <ClientProvider client={client}>{children}</ClientProvider>
        </QueryClientProvider>
      </DatesProvider>
    </MantineProvider>
  );
}

export function renderWithClient(ui: ReactNode, client: ConsoleClient) {
  return render(<Providers client={client}>{ui}</Providers>);
}

/** The consent screens at a route (hash-router paths), with a memory history the test can read. */
export function renderRoute(path: string, client: ConsoleClient) {
  useSession.setState({ connection: 'connected', syncProgress: null });
  const router = createMemoryRouter(
    [
      { path: '/consents', element: <ConsentsScreen /> },
      { path: '/consents/:consentId', element: <ConsentDetailScreen /> },
      { path: '/overview', element: <OverviewScreen /> },
      { path: '/events', element: <EventsScreen /> },
      { path: '/webhook-failures', element: <WebhookFailuresScreen /> },
      { path: '/use-cases', element: <UseCasesScreen /> },
      { path: '/audit', element: <AuditScreen /> },
      { path: '/reports', element: <ReportsScreen /> },
      { path: '/settings', element: <SettingsScreen /> },
      { path: '*', element: <p>elsewhere</p> },
    ],
    { initialEntries: [path] },
  );
  const result = render(
    <Providers client={client}>
      <RouterProvider router={router} />
    </Providers>,
  );
  return { ...result, router, location: () => `${router.state.location.pathname}${router.state.location.search}` };
}
