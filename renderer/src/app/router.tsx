import type { ReactNode } from 'react';
import { createHashRouter, Navigate } from 'react-router';
import { AuditScreen } from '../features/audit/AuditScreen.js';
import { ConsentDetailScreen } from '../features/consent-detail/ConsentDetailScreen.js';
import { ConsentsScreen } from '../features/consents/ConsentsScreen.js';
import { EventsScreen } from '../features/events/EventsScreen.js';
import { OverviewScreen } from '../features/overview/OverviewScreen.js';
import { ReportsScreen } from '../features/reports/ReportsScreen.js';
import { SettingsScreen } from '../features/settings/SettingsScreen.js';
import { UseCasesScreen } from '../features/use-cases/UseCasesScreen.js';
import { WebhookFailuresScreen } from '../features/webhooks/WebhookFailuresScreen.js';
import { DataScreen } from '../features/data/DataScreen.js';
import { CompareScreen } from '../features/products/CompareScreen.js';
import { ProductDetailScreen } from '../features/products/ProductDetailScreen.js';
import { ProductsScreen } from '../features/products/ProductsScreen.js';
import { PlaceholderScreen } from '../screens/PlaceholderScreen.js';
import { AppLayout } from './AppLayout.js';
import { SCREENS } from './screens.js';

/** The screens that are built, by path; the others show what they will hold. */
const BUILT: Record<string, ReactNode> = {
  '/overview': <OverviewScreen />,
  '/consents': <ConsentsScreen />,
  '/events': <EventsScreen />,
  '/webhook-failures': <WebhookFailuresScreen />,
  '/use-cases': <UseCasesScreen />,
  '/data': <DataScreen />,
  '/products': <ProductsScreen />,
  '/audit': <AuditScreen />,
  '/reports': <ReportsScreen />,
  '/settings': <SettingsScreen />,
};

/** Hash routing: the custom protocol and the browser host both serve a single index.html. */
export function createAppRouter() {
  return createHashRouter([
    {
      path: '/',
      element: <AppLayout />,
      children: [
        { index: true, element: <Navigate to="/overview" replace /> },
        { path: 'consents/:consentId', element: <ConsentDetailScreen /> },
        { path: 'products/compare', element: <CompareScreen /> },
        { path: 'products/:recordId', element: <ProductDetailScreen /> },
        ...SCREENS.map((s) => ({ path: s.path.slice(1), element: BUILT[s.path] ?? <PlaceholderScreen screen={s} /> })),
        { path: '*', element: <Navigate to="/overview" replace /> },
      ],
    },
  ]);
}
