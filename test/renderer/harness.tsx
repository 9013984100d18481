import { alertHandlers } from '../../electron/core/alerts/handlers.js';
import { AlertService } from '../../electron/core/alerts/service.js';
import { NO_DELIVERY } from '../../electron/core/alerts/delivery.js';
import { MantineProvider } from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { AuditLog } from '../../electron/core/cache/audit-log.js';
import type { ConsentsRepo } from '../../electron/core/cache/consents-repo.js';
import { openCache, type Db } from '../../electron/core/cache/database.js';
import { ReferenceRepo, type EventsRepo } from '../../electron/core/cache/events-repo.js';
import { sqliteStorage } from '../../electron/core/cache/sqlite-storage.js';
import { auditHandlers } from '../../electron/core/audit/handlers.js';
import type { ConsentActions } from '../../electron/core/consents/actions.js';
import { consentHandlers } from '../../electron/core/consents/handlers.js';
import type { CoreContext } from '../../electron/core/context.js';
import { eventHandlers } from '../../electron/core/events/handlers.js';
import { reportHandlers } from '../../electron/core/reports/handlers.js';
import { EventBus } from '../../electron/ipc/event-bus.js';
import { DEFAULT_SETTINGS } from '../../electron/core/settings.js';
import { CoreError, createRouter, type Handlers } from '../../electron/ipc/router.js';
import { createConsentGenerator } from '../../electron/sandbox/consents.js';
import { World } from '../../electron/sandbox/world.js';
import type { AppStatus, Caller, Settings } from '../../shared/ipc/contract.js';
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
import { UsersScreen } from '../../renderer/src/features/users/UsersScreen.js';
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
  /** The same cache's stores, as the app's core reads them. */
  stores: ReturnType<typeof sqliteStorage>;
}

/** An app:status of a console on a production intermediary (not the sandbox), changed by `change`. */
export function productionStatus(change: Partial<AppStatus> = {}): AppStatus {
  return {
    appVersion: '1',
    host: 'browser',
    profile: { id: 'p', name: 'Production', environment: 'prod', embedded: false },
    lastSyncAt: null,
    lastSyncError: null,
    online: true,
    syncing: false,
    consentCount: 3,
    keyStorage: { kind: 'key-file', description: 'Secrets are encrypted with a key file readable only by your user account.' },
    ...change,
  };
}

export function memoryClient(
  consentCount: number,
  overrides: Partial<Handlers> = {},
  opts: {
    status?: Partial<AppStatus>;
    events?: ConsentEvent[];
    withSeededEvents?: boolean;
    /** A signed-in person: the status names them, and the router checks their role on every request, as a team server's would. */
    user?: Caller;
  } = {},
): { client: ConsoleClient; calls: { channel: string; input: unknown }[]; cache: MemoryCache } {
  const db = openCache(':memory:');
  const stores = sqliteStorage(db);
  const { consents: repo, events, audit } = stores.sqlite;
  const reference = new ReferenceRepo(db);
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
    ...(opts.user ? { user: opts.user } : {}),
  };
  let settings: Settings = DEFAULT_SETTINGS;
  // The domains' own read handlers over the same ports as the app; exports and actions are left to
  // the tests that override them.
  const ctx: Pick<CoreContext, 'stores' | 'bus' | 'clock' | 'exports' | 'operator'> = {
    stores,
    bus: new EventBus(),
    clock: () => new Date(),
    exports: {
      start: async () => {
        throw new CoreError('INTERNAL', 'exports are not part of this test');
      },
    },
    operator: () => 'Tess Tester',
  };
  const consentReads = consentHandlers({
    ...ctx,
    actions: {} as ConsentActions,
    intermediary: { online: true },
    about: { appVersion: '9.9.9', profile: { id: 'sandbox', name: 'Embedded sandbox', environment: 'sandbox' } },
    redirectUri: 'https://recipient.test.invalid/callback',
  });
  const eventReads = eventHandlers(ctx);
  const auditReads = auditHandlers(ctx);
  const router = createRouter({
    handlers: testHandlers({
      'app:status': async () => status,
      'consents:list': consentReads['consents:list'],
      'consents:count': consentReads['consents:count'],
      'consents:options': consentReads['consents:options'],
      'consents:ids': consentReads['consents:ids'],
      'consents:resolve': consentReads['consents:resolve'],
      'consents:get': consentReads['consents:get'],
      'reference:list': consentReads['reference:list'],
      'settings:get': async () => settings,
      'settings:set': async (change) => (settings = { ...settings, ...(change as Partial<Settings>) }),
      'jobs:list': async () => [],
      'events:list': eventReads['events:list'],
      'events:count': eventReads['events:count'],
      'events:days': eventReads['events:days'],
      'webhooks:summary': eventReads['webhooks:summary'],
      'audit:query': auditReads['audit:query'],
      'audit:options': auditReads['audit:options'],
      'audit:verify': auditReads['audit:verify'],
      'reports:compliance': reportHandlers({ ...ctx, about: { profile: 'Embedded sandbox', appVersion: '9.9.9' } })['reports:compliance'],
      'sync:last': async () => null,
      'operator:get': async () => ({ account: 'tester', displayName: 'Tess Tester' }),
      'sync:start': async () => emptySyncSummary(),
      // The alerts on the same store (the bell, Settings → Alerts), evaluated by the real service.
      ...alertHandlers({
        ...ctx,
        alerts: stores.alerts,
        service: new AlertService({
          store: stores.alerts,
          clock: ctx.clock,
          log: { info() {}, error() {} },
          signals: {
            events: async () => 0,
            expiring: async () => 0,
            lastSync: async () => null,
            audit: async () => ({ ok: true }),
            reportAwaiting: async () => ({ firing: false, summary: 'The rule 9.4 report is signed off' }),
          },
          deliver: async () => undefined,
        }),
        delivery: {
          read: () => NO_DELIVERY,
          write: () => undefined,
          secrets: { has: () => false, set: () => undefined, delete: () => undefined },
          deliverer: {
            deliver: async () => undefined,
            mailReport: async () => null,
            test: async () => ({ ok: false, detail: 'No e-mail is set up.' }),
          },
          audit: async () => undefined,
        },
      }),
      ...overrides,
    }),
  });
  const calls: { channel: string; input: unknown }[] = [];
  const transport: Transport = {
    kind: 'browser',
    invoke: (channel, input) => {
      calls.push({ channel, input });
      // A structured clone, as a real transport would do: no shared object references.
      return router.handle(channel, structuredClone(input), true, opts.user ? { caller: opts.user } : undefined);
    },
    subscribe: () => () => undefined,
    onConnectionChange: (listener) => {
      listener('connected');
      return () => undefined;
    },
  };
  return { client: createConsoleClient(transport), calls, cache: { db, consents, repo, events, audit, reference, stores } };
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
      { path: '/users', element: <UsersScreen /> },
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
