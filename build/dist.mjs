// `npm run dist`: package with electron-builder. Nothing is rebuilt: the SQLite driver
// (better-sqlite3-multiple-ciphers 13) is a Node-API module whose prebuilt binaries load in Node and
// in Electron alike, so node_modules stays as `npm install` left it and the tests still run after.
import { spawnSync } from 'node:child_process';

const args = ['electron-builder', '--config', 'build/electron-builder.config.cjs', ...process.argv.slice(2)];
const builder = spawnSync('npx', args, { stdio: 'inherit' });
process.exit(builder.status ?? 1);
