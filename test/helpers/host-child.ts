// A browser host in its own process (core, embedded sandbox, the loopback server), for tests that
// must watch the process itself: that it survives hostile frames, and its memory under a flood.
// Usage: host-child.ts DATA_DIR STATIC_DIR AUDIT_ENTRIES [STALL_MS]
// Prints one JSON line {port, token} when ready; then answers "rss" on stdin with "rss N" (bytes)
// and logs what the host's transport reports as "log …" lines.
import { mkdirSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { startCore } from '../../electron/core/console-core.js';
import { startBrowserHost } from '../../electron/host/server.js';

const [dataDir, staticDir, auditEntries, stallMs] = process.argv.slice(2) as [string, string, string, string | undefined];
mkdirSync(dataDir, { recursive: true, mode: 0o700 });
const core = await startCore({
  dataDir,
  host: 'browser',
  appVersion: 'test',
  log: { info() {}, error() {} },
  sandbox: { consents: 20, clockOrigin: '2026-11-01T00:00:00.000Z' },
});
// A long audit log makes every audit:export answer large (≈ 400 bytes an entry), as in the report
// that showed the flood: 3,000 unread exports of it grew the host to gigabytes.
for (let i = 0; i < Number(auditEntries); i++)
  await core.stores.audit.append({
    operator: 'tester',
    action: 'consent.revoke',
    target: `consent-${String(i).padStart(8, '0')}`,
    reason: `seeded entry ${i} so that an export of the audit log is large enough to matter`,
    result: 'revoked',
  });
const host = await startBrowserHost({
  router: core.router,
  events: core.events,
  staticDir,
  ...(stallMs ? { limits: { stallMs: Number(stallMs) } } : {}),
  log: (message) => process.stdout.write(`log ${message}\n`),
});
process.stdout.write(`${JSON.stringify({ port: host.port, token: host.token })}\n`);
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line === 'rss') {
    global.gc?.();
    process.stdout.write(`rss ${process.memoryUsage().rss}\n`);
  }
});
process.stdin.on('end', () => void Promise.all([host.close(), core.close()]).then(() => process.exit(0)));
