/** How many rows a long list reads from main at a time (useWindowedRows.ts); apart, so the first reads (app/first-reads.ts) load without React. */
export const BLOCK_SIZE = 100;
