import { methodName, type EventName, type MethodName } from '../../../shared/ipc/channels.js';
import { CHANNELS, type Channel } from '../../../shared/ipc/contract.js';
import type { ChannelInput, ChannelOutput, EventPayload } from '../../../shared/ipc/contract.js';
import { IpcError } from '../../../shared/ipc/errors.js';
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

export function createConsoleClient(transport: Transport): ConsoleClient {
  const client: Record<string, unknown> = {
    hostKind: transport.kind,
    on: (event: EventName, listener: (payload: unknown) => void) =>
      transport.subscribe((name, payload) => {
        if (name === event) listener(payload);
      }),
    onConnectionChange: (listener: (state: ConnectionState) => void) => transport.onConnectionChange(listener),
  };
  for (const channel of CHANNELS) {
    client[methodName(channel)] = async (input: unknown) => {
      const envelope = await transport.invoke(channel, input);
      if (!envelope.ok) throw new IpcError(envelope.error);
      return envelope.value;
    };
  }
  return client as ConsoleClient;
}
