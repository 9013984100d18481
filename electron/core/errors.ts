import type { IpcErrorCode } from '../../shared/ipc/errors.js';

/**
 * An error the core throws on purpose, with a code the renderer understands (shared/ipc/errors.ts).
 * The domains' own (issue 37: it lived in ipc/router.ts, so every domain depended on the transport);
 * the router turns it into the envelope's error.
 */
export class CoreError extends Error {
  readonly code: IpcErrorCode;
  constructor(code: IpcErrorCode, message: string) {
    super(message);
    this.name = 'CoreError';
    this.code = code;
  }
}
