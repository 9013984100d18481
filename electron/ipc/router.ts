import { runWithRequest, type RequestContext } from './request-context.js';
import type { z } from 'zod';
import { contract, isChannel, needsCurrentCaller, roleRefusal, type Channel, type ChannelOutput } from '../../shared/ipc/contract.js';
import type { Envelope, IpcErrorBody, IpcErrorCode } from '../../shared/ipc/errors.js';
import { inputProblem } from './input-guard.js';
import { CoreError } from '../core/errors.js';

/**
 * The one IPC router, shared by the Electron shell (ipcMain.handle) and the browser host
 * (WebSocket). It never trusts its caller: it checks the sender, the channel, the caller's role
 * (when the request names a person: the channel's roles in the contract) and the input, and it
 * always answers with an envelope, whatever the handler throws.
 */

export type Handlers = {
  [C in Channel]: (input: z.output<(typeof contract)[C]['input']>) => Promise<ChannelOutput<C>>;
};

/** An error a handler throws on purpose (core/errors.ts; here too for the transport's callers). */
export { CoreError };

/** Said to a request whose person's session ended since their console connected. */
export const SESSION_OVER =
  'Your session has ended (signed out, your role changed, your user disabled or its password reset): nothing was done. Sign in again.';

export interface Router {
  /** `request`: who sent it, as the transport knows (request-context.ts). */
  handle(channel: unknown, input: unknown, senderTrusted: boolean, request?: RequestContext): Promise<Envelope<unknown>>;
}

export interface RouterOptions {
  handlers: Handlers;
  /** Called with every failure that is not the caller's fault, for the log. */
  onInternalError?: (channel: string, error: unknown) => void;
  /** Turns a failure a handler did not expect into a user-facing error (a damaged cache, say). */
  mapError?: (error: unknown) => CoreError | undefined;
}

/** Keeps a message readable, and bounded: zod echoes field names, and a hostile one can be megabytes long. */
function clip(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;
}

function zodFailure(code: IpcErrorCode, prefix: string, error: z.ZodError): IpcErrorBody {
  const first = error.issues[0];
  const path = clip(first?.path.map(String).join('.') ?? '');
  return {
    code,
    message: `${prefix}: ${path ? `${path}: ` : ''}${clip(first?.message ?? 'invalid')}`,
    ...(path ? { path } : {}),
  };
}

export function createRouter({ handlers, onInternalError, mapError }: RouterOptions): Router {
  return {
    async handle(channel, input, senderTrusted, request) {
      if (!senderTrusted) {
        return { ok: false, error: { code: 'FORBIDDEN_SENDER', message: 'Request refused: it did not come from the console window.' } };
      }
      if (!isChannel(channel)) {
        const name = typeof channel === 'string' ? channel.slice(0, 80) : typeof channel;
        return { ok: false, error: { code: 'UNKNOWN_CHANNEL', message: `Unknown channel: ${name}` } };
      }
      // Roles, before the input is even looked at: a request a role may not send runs nothing.
      if (request?.caller) {
        // What changes something, or is not everyone's, is done by the caller as they are now: a
        // removal on another server of the team holds at once (issue 35).
        if (request.current && needsCurrentCaller(contract[channel])) {
          const now = await request.current();
          if (!now) return { ok: false, error: { code: 'UNAUTHORIZED', message: SESSION_OVER } };
          request = { ...request, caller: now };
        }
        const refused = roleRefusal(channel, request.caller!.role, input);
        if (refused) return { ok: false, error: { code: 'FORBIDDEN', message: refused } };
      }
      const problem = inputProblem(input);
      if (problem) {
        const path = clip(problem.path);
        const where = path ? `${path}: ` : '';
        return {
          ok: false,
          error: {
            code: 'INVALID_INPUT',
            message: `Invalid request for ${channel}: ${where}${problem.message}`,
            ...(problem.path ? { path: problem.path } : {}),
          },
        };
      }
      const spec = contract[channel];
      const parsed = spec.input.safeParse(input);
      if (!parsed.success) {
        return { ok: false, error: zodFailure('INVALID_INPUT', `Invalid request for ${channel}`, parsed.error) };
      }
      let value: unknown;
      try {
        const handler = handlers[channel] as (input: unknown) => Promise<unknown>;
        value = await runWithRequest(request, () => handler(parsed.data));
      } catch (thrown) {
        const error = thrown instanceof CoreError ? thrown : (mapError?.(thrown) ?? thrown);
        if (error instanceof CoreError) return { ok: false, error: { code: error.code, message: error.message } };
        onInternalError?.(channel, error);
        return { ok: false, error: { code: 'INTERNAL', message: `Internal error while handling ${channel}.` } };
      }
      // The output is checked too: a bug in main must not hand the renderer a shape it does not expect.
      const checked = spec.output.safeParse(value);
      if (!checked.success) {
        onInternalError?.(channel, checked.error);
        return { ok: false, error: zodFailure('INVALID_OUTPUT', `Invalid response from ${channel}`, checked.error) };
      }
      return { ok: true, value: checked.data };
    },
  };
}
