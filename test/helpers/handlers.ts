import { CHANNELS } from '../../shared/ipc/contract.js';
import { CoreError, type Handlers } from '../../electron/ipc/router.js';

/** Handlers for a test double: the given ones, and every other channel refusing with a clear error. */
export function testHandlers(given: Partial<Handlers>): Handlers {
  const all = Object.fromEntries(
    CHANNELS.map((c) => [
      c,
      async () => {
        throw new CoreError('INTERNAL', `${c} is not part of this test`);
      },
    ]),
  );
  return { ...all, ...given } as Handlers;
}
