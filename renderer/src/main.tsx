import '@mantine/core/styles.css';
import '@mantine/dates/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/spotlight/styles.css';
import { MantineProvider, type MantineColorScheme } from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { ClientProvider } from './bridge/ClientContext.js';
import { connectToMain } from './bridge/connect.js';
import { settingsColorSchemeManager } from './app/color-scheme.js';
import { createAppRouter, preloadScreen } from './app/router.js';
import { cssVariablesResolver, theme } from './app/theme.js';
import { bindMainEvents } from './events.js';

// The first screen's code loads while the connection opens and the settings are read.
preloadScreen(window.location.hash);
const client = connectToMain();
const queries = new QueryClient({
  defaultOptions: { queries: { retry: 1, staleTime: 5_000, refetchOnWindowFocus: false } },
});
bindMainEvents(client, queries);

// The theme is known before the first paint, so a dark-theme user never sees a white flash.
const initialScheme: MantineColorScheme = await client.settingsGet({}).then(
  (s) => {
    queries.setQueryData(['settings:get'], s);
    return s.theme;
  },
  () => 'auto',
);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      defaultColorScheme={initialScheme}
      colorSchemeManager={settingsColorSchemeManager(client, initialScheme)}
    >
      <DatesProvider settings={{ firstDayOfWeek: 1 }}>
        <Notifications position="top-right" limit={4} />
        <QueryClientProvider client={queries}>
          <ClientProvider client={client}>
            <RouterProvider router={createAppRouter()} />
          </ClientProvider>
        </QueryClientProvider>
      </DatesProvider>
    </MantineProvider>
  </StrictMode>,
);
