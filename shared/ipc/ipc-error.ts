import type { IpcErrorBody, IpcErrorCode } from './errors.js';

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
