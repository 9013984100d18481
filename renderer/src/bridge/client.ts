import type { EventName, MethodName } from '../../../shared/ipc/channels.js';
import type { Channel, ChannelInput, ChannelOutput, EventPayload } from '../../../shared/ipc/contract.js';
import { IpcError } from '../../../shared/ipc/ipc-error.js';
import type { ConnectionState, Transport } from './transport.js';

/**
 * The renderer's typed client: one method per channel, resolving to the value or throwing an
 * IpcError with the code main sent. Components use this, never a transport.
 */
export type ConsoleClient = {
  [C in Channel as MethodName<C>]: (input: ChannelInput<C>) => Promise<ChannelOutput<C>>;
} & {
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
  onConnectionChange(listener: (state: ConnectionState) => void): () => void;
  readonly hostKind: 'electron' | 'browser';
};

/**
 * `consentsList` → `consents:list`: the channel a method of the client sends on (the inverse of
 * channels.ts methodName: an area is lower-case, its verb starts with a capital in the method's
 * name, then each word of it capitalised). Undefined for a name of another shape (`then`, `toJSON`…).
 */
export function channelOfMethod(name: string): Channel | undefined {
  const m = /^([a-z]+)((?:[A-Z][a-z]+)+)$/.exec(name);
  return m ? (`${m[1]}:${m[2]!.charAt(0).toLowerCase()}${m[2]!.slice(1)}` as Channel) : undefined;
}

/**
 * The client's methods are made when first called, from their names: the client needs no list of
 * the channels, so it loads without the contract's zod schemas (the first screen's reads are sent
 * before they arrive). Main checks every channel and every input, whatever is sent.
 */
export function createConsoleClient(transport: Transport): ConsoleClient {
  const client: Record<string, unknown> = {
    hostKind: transport.kind,
    on: (event: EventName, listener: (payload: unknown) => void) =>
      transport.subscribe((name, payload) => {
        if (name === event) listener(payload);
      }),
    onConnectionChange: (listener: (state: ConnectionState) => void) => transport.onConnectionChange(listener),
  };
  return new Proxy(client, {
    get(target, name) {
      // What any object has (toString, hasOwnProperty…) stays what it is.
      if (typeof name !== 'string' || name in target) return target[name as string];
      const channel = channelOfMethod(name);
      if (!channel) return undefined;
      const method = async (input: unknown) => {
        const envelope = await transport.invoke(channel, input);
        if (!envelope.ok) throw new IpcError(envelope.error);
        return envelope.value;
      };
      target[name] = method;
      return method;
    },
  }) as ConsoleClient;
}
