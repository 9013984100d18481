/** The error codes that cross the IPC boundary (errors.ts: their zod enum, and what they mean). */
export const IPC_ERROR_CODES = [
  'UNKNOWN_CHANNEL',
  'FORBIDDEN_SENDER',
  'INVALID_INPUT',
  'INVALID_OUTPUT',
  'BUSY',
  'CANCELLED',
  'OFFLINE',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'UPSTREAM',
  'SCHEMA',
  'CACHE',
  'INTERNAL',
  'TRANSPORT',
  /** What the call would change was changed by someone else since the caller read it (a complaint edited in two consoles). */
  'CONFLICT',
] as const;
type IpcErrorCode = (typeof IPC_ERROR_CODES)[number];
type IpcErrorBody = { code: IpcErrorCode; message: string; path?: string | undefined };

/**
 * Thrown by the renderer's typed client when main answers `{ok: false}`. Kept apart from the
 * codes' zod schemas (errors.ts), so the client that sends the first screen's reads loads without zod.
 */
export class IpcError extends Error {
  readonly code: IpcErrorCode;
  readonly path: string | undefined;
  constructor(body: IpcErrorBody) {
    super(body.message);
    this.name = 'IpcError';
    this.code = body.code;
    this.path = body.path;
  }
}
