import '@mantine/core/styles.css';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { ClientProvider } from './bridge/ClientContext.js';
import { connectToMain } from './bridge/connect.js';
import { createAppRouter } from './app/router.js';
import { theme } from './app/theme.js';
import { bindMainEvents } from './events.js';

const client = connectToMain();
const queries = new QueryClient({
  defaultOptions: { queries: { retry: 1, staleTime: 5_000, refetchOnWindowFocus: false } },
});
bindMainEvents(client, queries);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} defaultColorScheme="light">
      <QueryClientProvider client={queries}>
        <ClientProvider client={client}>
          <RouterProvider router={createAppRouter()} />
        </ClientProvider>
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
