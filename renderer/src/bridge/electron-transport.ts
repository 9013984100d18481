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
      const fn = api[methodName(channel)] as ((input: unknown) => Promise<Envelope<unknown>>) | undefined;
      // The client makes a method for any channel-shaped name: the preload has one per channel.
      if (typeof fn !== 'function')
        return Promise.resolve({ ok: false, error: { code: 'UNKNOWN_CHANNEL', message: `There is no channel ${channel}.` } });
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
