import { create } from 'zustand';
import type { SyncProgress } from '../../../shared/ipc/contract.js';
import type { ConnectionState } from '../bridge/transport.js';

/** Live state pushed by main: the host connection, the sync in progress and how the last one ended. */
export interface SessionState {
  connection: ConnectionState;
  syncProgress: SyncProgress | null;
  /** The last phase that ended (finished, failed or cancelled), with its message. */
  lastSyncEnd: SyncProgress | null;
  setConnection(state: ConnectionState): void;
  setSyncProgress(progress: SyncProgress | null): void;
  setLastSyncEnd(progress: SyncProgress): void;
  /** The last time the console reopened on a profile (Settings), and whether that worked. */
  profileSwitch: { profileId: string; ok: boolean; message: string | null } | null;
  setProfileSwitch(s: { profileId: string; ok: boolean; message: string | null }): void;
}

export const useSession = create<SessionState>()((set) => ({
  connection: 'connecting',
  syncProgress: null,
  lastSyncEnd: null,
  setConnection: (connection) => set({ connection }),
  setSyncProgress: (syncProgress) => set({ syncProgress }),
  setLastSyncEnd: (lastSyncEnd) => set({ lastSyncEnd }),
  profileSwitch: null,
  setProfileSwitch: (profileSwitch) => set({ profileSwitch }),
}));
