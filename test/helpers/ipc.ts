import type { Core } from '../../electron/core/console-core.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- envelopes are read as loose JSON in tests */

/** Calls a channel through the core's router as the renderer would, returning the value or throwing the error. */
export function ipcClient(core: () => Core, record?: (response: string) => void) {
  const raw = async (channel: string, input: unknown): Promise<any> => {
    const envelope = await core().router.handle(channel, input, true);
    record?.(JSON.stringify(envelope));
    return envelope;
  };
  const ok = async (channel: string, input: unknown): Promise<any> => {
    const e = await raw(channel, input);
    if (!e.ok) throw new Error(`${channel}: ${e.error.code} ${e.error.message}`);
    return e.value;
  };
  return { raw, ok };
}
