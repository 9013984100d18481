import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { EVENTS, isEventName, methodName } from '../shared/ipc/channels.js';
import type { Channel } from '../shared/ipc/contract.js';
import type { BridgeApi } from '../shared/ipc/contract.js';

/**
 * The preload: one named function per IPC channel plus one event subscription, exposed as
 * `window.api`. No raw ipcRenderer, nothing else. Bundled into a single CJS file because a
 * sandboxed preload cannot load other files.
 */
/** The contract's channel names, written in at build time (build/bundle-electron.mjs): the contract itself brings zod. */
declare const __CDR_CHANNELS__: readonly Channel[];

const api: Record<string, unknown> = {};
for (const channel of __CDR_CHANNELS__) {
  api[methodName(channel)] = (input: unknown) => ipcRenderer.invoke(channel, input);
}
api.on = (event: string, listener: (payload: unknown) => void) => {
  if (!isEventName(event)) throw new Error(`Unknown event: ${event}. Known: ${EVENTS.join(', ')}`);
  const wrapped = (_e: IpcRendererEvent, payload: unknown) => listener(payload);
  ipcRenderer.on(event, wrapped);
  return () => {
    ipcRenderer.removeListener(event, wrapped);
  };
};

contextBridge.exposeInMainWorld('api', api as BridgeApi);
