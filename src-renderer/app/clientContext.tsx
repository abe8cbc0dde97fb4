import { createContext, useContext, type ReactNode } from 'react';
import type { EngineClient } from '../transport/client';

const ClientContext = createContext<EngineClient | null>(null);

export function ClientProvider({ client, children }: { client: EngineClient; children: ReactNode }) {
  return <ClientContext.Provider value={client}>{children}</ClientContext.Provider>;
}

export function useClient(): EngineClient {
  const client = useContext(ClientContext);
  if (!client) throw new Error('useClient outside ClientProvider');
  return client;
}
