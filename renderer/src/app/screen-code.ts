import type { ComponentType } from 'react';

/**
 * Each screen is its own chunk, loaded when first shown (AppLayout's Suspense shows a labelled
 * loading state meanwhile): the first screen loads its own code and the shell's, not every screen's.
 * Here without React or the shell, so the page's entry (main.tsx) can start loading the first
 * screen's code at once, beside the shell's, rather than after the shell has run.
 */
type Loader = () => Promise<ComponentType>;
export const LOADERS = {
  '/overview': () => import('../features/overview/OverviewScreen.js').then((m) => m.OverviewScreen),
  '/consents': () => import('../features/consents/ConsentsScreen.js').then((m) => m.ConsentsScreen),
  '/consents/:consentId': () => import('../features/consent-detail/ConsentDetailScreen.js').then((m) => m.ConsentDetailScreen),
  '/events': () => import('../features/events/EventsScreen.js').then((m) => m.EventsScreen),
  '/webhook-failures': () => import('../features/webhooks/WebhookFailuresScreen.js').then((m) => m.WebhookFailuresScreen),
  '/use-cases': () => import('../features/use-cases/UseCasesScreen.js').then((m) => m.UseCasesScreen),
  '/data': () => import('../features/data/DataScreen.js').then((m) => m.DataScreen),
  '/data/customer': () => import('../features/data/CustomerScreen.js').then((m) => m.CustomerScreen),
  '/products': () => import('../features/products/ProductsScreen.js').then((m) => m.ProductsScreen),
  '/products/compare': () => import('../features/products/CompareScreen.js').then((m) => m.CompareScreen),
  '/products/:recordId': () => import('../features/products/ProductDetailScreen.js').then((m) => m.ProductDetailScreen),
  '/audit': () => import('../features/audit/AuditScreen.js').then((m) => m.AuditScreen),
  '/complaints': () => import('../features/complaints/ComplaintsScreen.js').then((m) => m.ComplaintsScreen),
  '/reports': () => import('../features/reports/ReportsScreen.js').then((m) => m.ReportsScreen),
  '/reports/rule94': () => import('../features/reports/Rule94Screen.js').then((m) => m.Rule94Screen),
  '/users': () => import('../features/users/UsersScreen.js').then((m) => m.UsersScreen),
  '/settings': () => import('../features/settings/SettingsScreen.js').then((m) => m.SettingsScreen),
} satisfies Record<string, Loader>;
export type Path = keyof typeof LOADERS;

const loaded = new Map<Path, Promise<ComponentType>>();
const arrived = new Map<Path, ComponentType>();
/** The screen's code, loading once (a preload and the route share it). */
export const load = (path: Path) => {
  let p = loaded.get(path);
  if (!p) {
    p = LOADERS[path]();
    p.then(
      (screen) => arrived.set(path, screen),
      // A failed load (a chunk missing after an update) may be tried again by the next render.
      () => loaded.delete(path),
    );
    loaded.set(path, p);
  }
  return p;
};
/** The screen, when its code has arrived (else undefined: it is loaded when shown). */
export const loadedScreen = (path: Path): ComponentType | undefined => arrived.get(path);
/**
 * Starts loading the code of the screen at a location's hash ("#/consents?status=ACTIVE"), so it
 * arrives while the app starts rather than after (main.tsx, before anything else); resolves once
 * it has arrived, or failed (the route tries again).
 */
export function preloadScreen(hash: string): Promise<void> {
  const parts = hash.replace(/^#/, '').split(/[?#]/)[0]!.split('/').filter(Boolean);
  const path: Path | undefined =
    parts.length === 0
      ? '/overview'
      : parts.length === 1
        ? (`/${parts[0]}` as Path)
        : parts[0] === 'consents'
          ? '/consents/:consentId'
          : parts[0] === 'data' && parts[1] === 'customer'
            ? '/data/customer'
            : parts[0] === 'reports' && parts[1] === 'rule94'
              ? '/reports/rule94'
              : parts[0] === 'products'
                ? parts[1] === 'compare'
                  ? '/products/compare'
                  : '/products/:recordId'
                : undefined;
  return path && path in LOADERS
    ? load(path).then(
        () => undefined,
        () => undefined,
      )
    : Promise.resolve();
}
