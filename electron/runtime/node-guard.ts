/**
 * Imported first by every entry point (the console, the browser host, the command line): refuses a
 * Node.js older than 22.14 with one line and exit code 1, before anything opens the cache. The
 * SQLite driver (better-sqlite3-multiple-ciphers 13) needs Node-API 10, which Node has from 22.14:
 * on Node 20 or 22.13 it loads but crashes the process with a segmentation fault at the first
 * database it opens (both seen).
 */
export const MINIMUM_NODE = { major: 22, minor: 14 } as const;

export function unsupportedNodeMessage(version: string): string | null {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  if (major > MINIMUM_NODE.major || (major === MINIMUM_NODE.major && minor >= MINIMUM_NODE.minor)) return null;
  return (
    `CDR Console needs Node.js ${MINIMUM_NODE.major}.${MINIMUM_NODE.minor} or newer (24 recommended); this is Node.js ${version}. ` +
    'Install Node.js 24 or 22, or on Linux x64 run `. build/use-node.sh` first (docs/running.md, "Set up, run, test").'
  );
}

// Electron brings its own Node; this guards plain Node runs only.
if (!process.versions.electron) {
  const message = unsupportedNodeMessage(process.versions.node);
  if (message) {
    process.stderr.write(`${message}\n`);
    process.exit(1);
  }
}
