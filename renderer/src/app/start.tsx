import { MantineProvider, type MantineColorScheme } from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { ClientProvider } from '../bridge/ClientContext.js';
import { mainClient } from '../bridge/main-client.js';
import { settingsColorSchemeManager } from './color-scheme.js';
import { seedFirstReads } from './first-reads.js';
import { createAppRouter } from './router.js';
import { preloadScreen } from './screen-code.js';
import { cssVariablesResolver, theme } from './theme.js';
import { bindMainEvents } from '../events.js';

/**
 * The console's shell: the connection to main, the query cache, the theme, the router. Loaded by
 * the page's entry (main.tsx) beside the first screen's code.
 */
const client = mainClient();
const queries = new QueryClient({
  defaultOptions: { queries: { retry: 1, staleTime: 5_000, refetchOnWindowFocus: false } },
});
bindMainEvents(client, queries);
// The settings and the first screen's reads, sent by the page's entry while this code loaded.
seedFirstReads(queries, window.location.hash);

// The theme is known before the first paint, so a dark-theme user never sees a white flash; and
// the first screen's code (main.tsx started it) has arrived, so it renders without a fallback.
const [initialScheme] = await Promise.all([
  queries.fetchQuery({ queryKey: ['settings:get'], queryFn: () => client.settingsGet({}) }).then(
    (s): MantineColorScheme => s.theme,
    (): MantineColorScheme => 'auto',
  ),
  preloadScreen(window.location.hash),
]);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      defaultColorScheme={initialScheme}
      colorSchemeManager={settingsColorSchemeManager(client, initialScheme)}
    >
      <DatesProvider settings={{ firstDayOfWeek: 1 }}>
        <QueryClientProvider client={queries}>
          <ClientProvider client={client}>
            <RouterProvider router={createAppRouter()} />
          </ClientProvider>
        </QueryClientProvider>
      </DatesProvider>
    </MantineProvider>
  </StrictMode>,
);
