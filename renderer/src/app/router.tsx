import { createHashRouter, Navigate } from 'react-router';
import { ConsentDetailScreen } from '../features/consent-detail/ConsentDetailScreen.js';
import { ConsentsScreen } from '../features/consents/ConsentsScreen.js';
import { PlaceholderScreen } from '../screens/PlaceholderScreen.js';
import { AppLayout } from './AppLayout.js';
import { SCREENS } from './screens.js';

/** Hash routing: the custom protocol and the browser host both serve a single index.html. */
export function createAppRouter() {
  return createHashRouter([
    {
      path: '/',
      element: <AppLayout />,
      children: [
        { index: true, element: <Navigate to="/consents" replace /> },
        { path: 'consents', element: <ConsentsScreen /> },
        { path: 'consents/:consentId', element: <ConsentDetailScreen /> },
        ...SCREENS.filter((s) => s.path !== '/consents').map((s) => ({ path: s.path.slice(1), element: <PlaceholderScreen screen={s} /> })),
        { path: '*', element: <Navigate to="/consents" replace /> },
      ],
    },
  ]);
}
