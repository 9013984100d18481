import type { BridgeApi } from '../../../shared/ipc/contract.js';
import { createConsoleClient, type ConsoleClient } from './client.js';
import { electronTransport } from './electron-transport.js';
import { websocketTransport } from './websocket-transport.js';

declare global {
  interface Window {
    /** Set by the Electron preload; absent in the browser host. */
    api?: BridgeApi;
  }
}

/** Electron when the preload ran, otherwise the browser host's socket on this origin. */
export function connectToMain(): ConsoleClient {
  if (window.api) return createConsoleClient(electronTransport(window.api));
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  return createConsoleClient(websocketTransport(`${scheme}://${window.location.host}/ipc`));
}
