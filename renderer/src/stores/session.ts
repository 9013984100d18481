import { create } from 'zustand';
import type { SyncProgress } from '../../../shared/ipc/contract.js';
import type { ConnectionState } from '../bridge/transport.js';

/** Live state pushed by main: the host connection and the sync in progress. */
export interface SessionState {
  connection: ConnectionState;
  syncProgress: SyncProgress | null;
  setConnection(state: ConnectionState): void;
  setSyncProgress(progress: SyncProgress | null): void;
}

export const useSession = create<SessionState>()((set) => ({
  connection: 'connecting',
  syncProgress: null,
  setConnection: (connection) => set({ connection }),
  setSyncProgress: (syncProgress) => set({ syncProgress }),
}));
