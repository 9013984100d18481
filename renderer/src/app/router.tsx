import { lazy, useState, type ComponentType, type LazyExoticComponent } from 'react';
import { createHashRouter, Navigate } from 'react-router';
import { PlaceholderScreen } from '../screens/PlaceholderScreen.js';
import { AppLayout } from './AppLayout.js';
import { ScreenError, ShellError } from './ScreenError.js';
import { load, loadedScreen, LOADERS, type Path } from './screen-code.js';
import { watchNavigations } from './screen-opening.js';
import { SCREENS } from './screens.js';

const SCREEN_OF = Object.fromEntries(
  (Object.keys(LOADERS) as Path[]).map((path) => [path, lazy(() => load(path).then((c) => ({ default: c })))]),
) as Record<Path, LazyExoticComponent<ComponentType>>;
/**
 * A screen whose code has arrived (the first one, loaded beside the shell; one shown before)
 * renders at once: React.lazy would suspend it for a turn even so, and React keeps a fallback it
 * showed for 300 ms at least (the first rows came that much later). Chosen once per mount.
 */
function Screen({ path }: { path: Path }) {
  const [Chosen] = useState(() => loadedScreen(path) ?? SCREEN_OF[path]);
  return <Chosen />;
}
// Keyed: the routes share this component at one place in the tree, and each screen has its own.
const screen = (path: Path) => <Screen key={path} path={path} />;

/** Hash routing: the custom protocol and the browser host both serve a single index.html. */
export function createAppRouter() {
  const router = createHashRouter([
    {
      path: '/',
      element: <AppLayout />,
      // A screen that fails shows its error panel in its place (ScreenError); the shell's own
      // failure, a page of its own. Never react-router's developer page (issue 34).
      errorElement: <ShellError />,
      children: [
        { index: true, element: <Navigate to="/overview" replace /> },
        { path: 'consents/:consentId', element: screen('/consents/:consentId'), errorElement: <ScreenError path="/consents/:consentId" /> },
        { path: 'data/customer', element: screen('/data/customer'), errorElement: <ScreenError path="/data/customer" /> },
        { path: 'reports/rule94', element: screen('/reports/rule94'), errorElement: <ScreenError path="/reports/rule94" /> },
        { path: 'products/compare', element: screen('/products/compare'), errorElement: <ScreenError path="/products/compare" /> },
        { path: 'products/:recordId', element: screen('/products/:recordId'), errorElement: <ScreenError path="/products/:recordId" /> },
        ...SCREENS.map((s) => ({
          path: s.path.slice(1),
          element: s.path in LOADERS ? screen(s.path as Path) : <PlaceholderScreen screen={s} />,
          errorElement: <ScreenError path={s.path} />,
        })),
        { path: '*', element: <Navigate to="/overview" replace /> },
      ],
    },
  ]);
  watchNavigations(router);
  return router;
}
