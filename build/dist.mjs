// `npm run dist`: package with electron-builder, then put the Node build of better-sqlite3-multiple-ciphers back,
// because packaging rebuilt it in place for Electron and the tests run under Node.
import { spawnSync } from 'node:child_process';

const args = ['electron-builder', '--config', 'build/electron-builder.config.cjs', ...process.argv.slice(2)];
const builder = spawnSync('npx', args, { stdio: 'inherit' });
const restore = spawnSync('npm', ['rebuild', 'better-sqlite3-multiple-ciphers'], { stdio: 'inherit' });
if (restore.status !== 0)
  console.error('Could not rebuild better-sqlite3-multiple-ciphers for Node: run npm run rebuild:node before testing.');
process.exit(builder.status ?? 1);
