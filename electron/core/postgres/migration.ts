import type { Tx } from './db.js';

/**
 * The team store's schema, versioned. Migrations run when a server starts, all pending ones in one
 * transaction under an advisory lock (two servers starting together migrate once); a database whose
 * schema is newer than this code is refused, never downgraded. `cdr_schema` records each version
 * applied, when, and by which code.
 */
export interface Migration {
  version: number;
  name: string;
  up: string | ((tx: Tx) => Promise<void>);
}
