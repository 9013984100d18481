import { EVENTS, methodName } from '../../../shared/ipc/channels.js';
import type { Channel } from '../../../shared/ipc/contract.js';
import type { BridgeApi } from '../../../shared/ipc/contract.js';
import type { Envelope } from '../../../shared/ipc/errors.js';
import type { Transport } from './transport.js';

/** Transport over the preload's `window.api` (Electron). The connection is always up. */
export function electronTransport(api: BridgeApi): Transport {
  return {
    kind: 'electron',
    invoke(channel: Channel, input: unknown) {
      const fn = api[methodName(channel)] as (input: unknown) => Promise<Envelope<unknown>>;
      return fn(input);
    },
    subscribe(listener) {
      const offs = EVENTS.map((event) => api.on(event, (payload) => listener(event, payload)));
      return () => offs.forEach((off) => off());
    },
    onConnectionChange(listener) {
      listener('connected');
      return () => undefined;
    },
  };
}
