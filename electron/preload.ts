import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { CHANNELS, EVENTS, isEventName, methodName } from '../shared/ipc/channels.js';
import type { BridgeApi } from '../shared/ipc/contract.js';

/**
 * The preload: one named function per IPC channel plus one event subscription, exposed as
 * `window.api`. No raw ipcRenderer, nothing else. Bundled into a single CJS file because a
 * sandboxed preload cannot load other files.
 */
const api: Record<string, unknown> = {};
for (const channel of CHANNELS) {
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
