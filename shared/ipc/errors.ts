import * as z from 'zod';
import { IPC_ERROR_CODES } from './ipc-error.js';

/**
 * Error codes that cross the IPC boundary. The renderer switches on these, never on messages.
 * Messages are written for the user: specific, and free of secrets.
 */
export const IpcErrorCode = z.enum(IPC_ERROR_CODES);
export type IpcErrorCode = z.infer<typeof IpcErrorCode>;

export const IpcErrorBody = z.object({
  code: IpcErrorCode,
  message: z.string(),
  /** Where the problem is, e.g. the zod path of an invalid input field. */
  path: z.string().optional(),
});
export type IpcErrorBody = z.infer<typeof IpcErrorBody>;

export type Envelope<T> = { ok: true; value: T } | { ok: false; error: IpcErrorBody };

export { IpcError } from './ipc-error.js';
