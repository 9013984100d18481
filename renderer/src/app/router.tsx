import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { createHashRouter, Navigate } from 'react-router';
import { PlaceholderScreen } from '../screens/PlaceholderScreen.js';
import { AppLayout } from './AppLayout.js';
import { SCREENS } from './screens.js';

/**
 * Each screen is its own chunk, loaded when first shown (AppLayout's Suspense shows a labelled
 * loading state meanwhile): the first screen loads its own code and the shell's, not every screen's.
 */
type Loader = () => Promise<ComponentType>;
const LOADERS = {
  '/overview': () => import('../features/overview/OverviewScreen.js').then((m) => m.OverviewScreen),
  '/consents': () => import('../features/consents/ConsentsScreen.js').then((m) => m.ConsentsScreen),
  '/consents/:consentId': () => import('../features/consent-detail/ConsentDetailScreen.js').then((m) => m.ConsentDetailScreen),
  '/events': () => import('../features/events/EventsScreen.js').then((m) => m.EventsScreen),
  '/webhook-failures': () => import('../features/webhooks/WebhookFailuresScreen.js').then((m) => m.WebhookFailuresScreen),
  '/use-cases': () => import('../features/use-cases/UseCasesScreen.js').then((m) => m.UseCasesScreen),
  '/data': () => import('../features/data/DataScreen.js').then((m) => m.DataScreen),
  '/products': () => import('../features/products/ProductsScreen.js').then((m) => m.ProductsScreen),
  '/products/compare': () => import('../features/products/CompareScreen.js').then((m) => m.CompareScreen),
  '/products/:recordId': () => import('../features/products/ProductDetailScreen.js').then((m) => m.ProductDetailScreen),
  '/audit': () => import('../features/audit/AuditScreen.js').then((m) => m.AuditScreen),
  '/reports': () => import('../features/reports/ReportsScreen.js').then((m) => m.ReportsScreen),
  '/users': () => import('../features/users/UsersScreen.js').then((m) => m.UsersScreen),
  '/settings': () => import('../features/settings/SettingsScreen.js').then((m) => m.SettingsScreen),
} satisfies Record<string, Loader>;
type Path = keyof typeof LOADERS;

const loaded = new Map<Path, Promise<ComponentType>>();
/** The screen's code, loading once (a preload and the route share it). */
const load = (path: Path) => {
  let p = loaded.get(path);
  if (!p) {
    p = LOADERS[path]();
    // A failed load (a chunk missing after an update) may be tried again by the next render.
    p.catch(() => loaded.delete(path));
    loaded.set(path, p);
  }
  return p;
};
const SCREEN_OF = Object.fromEntries(
  (Object.keys(LOADERS) as Path[]).map((path) => [path, lazy(() => load(path).then((c) => ({ default: c })))]),
) as Record<Path, LazyExoticComponent<ComponentType>>;
const screen = (path: Path) => {
  const Screen = SCREEN_OF[path];
  return <Screen />;
};

/**
 * Starts loading the code of the screen at a location's hash ("#/consents?status=ACTIVE"), so it
 * arrives while the app starts rather than after (main.tsx, before its first read).
 */
export function preloadScreen(hash: string): void {
  const parts = hash.replace(/^#/, '').split(/[?#]/)[0]!.split('/').filter(Boolean);
  const path: Path | undefined =
    parts.length === 0
      ? '/overview'
      : parts.length === 1
        ? (`/${parts[0]}` as Path)
        : parts[0] === 'consents'
          ? '/consents/:consentId'
          : parts[0] === 'products'
            ? parts[1] === 'compare'
              ? '/products/compare'
              : '/products/:recordId'
            : undefined;
  if (path && path in LOADERS) void load(path).catch(() => undefined);
}

/** Hash routing: the custom protocol and the browser host both serve a single index.html. */
export function createAppRouter() {
  return createHashRouter([
    {
      path: '/',
      element: <AppLayout />,
      children: [
        { index: true, element: <Navigate to="/overview" replace /> },
        { path: 'consents/:consentId', element: screen('/consents/:consentId') },
        { path: 'products/compare', element: screen('/products/compare') },
        { path: 'products/:recordId', element: screen('/products/:recordId') },
        ...SCREENS.map((s) => ({
          path: s.path.slice(1),
          element: s.path in LOADERS ? screen(s.path as Path) : <PlaceholderScreen screen={s} />,
        })),
        { path: '*', element: <Navigate to="/overview" replace /> },
      ],
    },
  ]);
}
