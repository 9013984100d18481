import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The command line reaches the core through the contract's channels (electron/cli/channels.ts), on
 * this machine as on a team server, so every command gets the router's input checks: no command
 * reads or writes the stores behind them, but for the two that stream what no channel answers.
 */
const cliDir = fileURLToPath(new URL('../../electron/cli/', import.meta.url));

/** What may still go around the channels, and why (the line that does it). */
const AROUND = [
  // `consents --all`: every matching row streamed to stdout, audited as an export (a channel answers a window).
  /core\.recordExport\(await exportConsents\(core\.stores\.consents, input, process\.stdout\), input\)/,
  // `bulk-revoke` on this machine: the job run in this process, item by item on stderr.
  /core\.actions\.(createBulkRevoke|runBulkRevoke)\(/,
];

describe('the command line goes through the channels', () => {
  it('uses no store, cache or router of the core but where a channel cannot serve', () => {
    const found: string[] = [];
    for (const file of readdirSync(cliDir).filter((f) => f.endsWith('.ts') && f !== 'channels.ts')) {
      const lines = readFileSync(join(cliDir, file), 'utf8').split('\n');
      lines.forEach((line, i) => {
        if (/\bcore\.(stores|cache|actions|router|sync)\b/.test(line) && !AROUND.some((ok) => ok.test(line)))
          found.push(`${file}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(found).toEqual([]);
  });
});
