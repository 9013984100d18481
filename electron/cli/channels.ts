import type { Command } from 'commander';
import type { EventName } from '../../shared/ipc/channels.js';
import type { Channel, ChannelInput, ChannelOutput } from '../../shared/ipc/contract.js';
import { CoreError } from '../core/errors.js';
import { withCore } from './common.js';
import { remoteOf, withRemote } from './remote.js';

/** What a command calls: the core's router on this machine, or the team server's. */
export type Call = <C extends Channel>(channel: C, input: ChannelInput<C>) => Promise<ChannelOutput<C>>;
/** The events the core or the server sends while the command runs (sync and job progress); returns the unsubscribe. */
export type OnEvent = (listener: (event: EventName, payload: unknown) => void) => () => void;

/**
 * Runs a command through the contract's channels (issue 37): the core's router on this machine, or
 * the team server's with --server — the same role and input checks either way.
 */
export async function withChannels<T>(program: Command, run: (call: Call, on: OnEvent) => Promise<T>): Promise<T> {
  const remote = remoteOf(program);
  if (remote)
    return withRemote(remote, (c) =>
      run(
        (channel, input) => c.call(channel, input),
        (listener) => c.on(listener),
      ),
    );
  return withCore(program, (core) =>
    run(
      async (channel, input) => {
        const r = await core.router.handle(channel, input, true);
        if (!r.ok) throw new CoreError(r.error.code, r.error.message);
        return r.value as never;
      },
      (listener) => core.events.subscribe(listener),
    ),
  );
}
