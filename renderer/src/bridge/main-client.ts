import type { ConsoleClient } from './client.js';
import { connectToMain } from './connect.js';

let client: ConsoleClient | undefined;

/**
 * The page's one connection to main, opened by the first to ask: the first reads (app/first-reads.ts)
 * while the shell's code is still loading, else the shell (app/start.tsx).
 */
export function mainClient(): ConsoleClient {
  return (client ??= connectToMain());
}
