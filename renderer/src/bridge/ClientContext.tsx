import { createContext, useContext, type ReactNode } from 'react';
import type { ConsoleClient } from './client.js';

const ClientContext = createContext<ConsoleClient | null>(null);

export function ClientProvider({ client, children }: { client: ConsoleClient; children: ReactNode }) {
  return <ClientContext.Provider value={client}>{children}</ClientContext.Provider>;
}

export function useClient(): ConsoleClient {
  const client = useContext(ClientContext);
  if (!client) throw new Error('useClient() outside <ClientProvider>');
  return client;
}
