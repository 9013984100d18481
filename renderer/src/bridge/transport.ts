import type { EventName } from '../../../shared/ipc/channels.js';
import type { Channel } from '../../../shared/ipc/contract.js';
import type { Envelope } from '../../../shared/ipc/errors.js';

/**
 * How the renderer reaches main: Electron's preload (`window.api`) or the browser host's
 * WebSocket. Both carry the same envelopes; the typed client sits on top of either.
 */
export type ConnectionState = 'connecting' | 'connected' | 'disconnected';

export interface Transport {
  invoke(channel: Channel, input: unknown): Promise<Envelope<unknown>>;
  subscribe(listener: (event: EventName, payload: unknown) => void): () => void;
  onConnectionChange(listener: (state: ConnectionState) => void): () => void;
  readonly kind: 'electron' | 'browser';
}
