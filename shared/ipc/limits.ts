/**
 * The contract's page and bulk limits, and the browser host's WebSocket IPC limits, without zod:
 * the renderer's first screen reads them before the contract's schemas have loaded (contract/
 * common.ts re-exports the first two), and refuses a request it knows the host would refuse (with
 * a clear message, instead of a dropped connection).
 */

/** Most rows one request may ask for: no unbounded result set crosses IPC. */
export const MAX_PAGE_SIZE = 500;
/** Most consents one bulk action may name. */
export const MAX_BULK = 10_000;

/**
 * The largest legitimate request is a bulk revocation of MAX_BULK (10,000) consent ids of up to 200
 * characters: about 2.03 MB of JSON with ASCII ids. 4 MiB leaves twice that; anything larger is not
 * a request the console makes, and one message is held whole in memory while it is read.
 */
export const MAX_IPC_MESSAGE_BYTES = 4 * 1024 * 1024;

/** Requests of one connection being handled at once; more are answered BUSY at once. */
export const MAX_IPC_IN_FLIGHT = 64;
