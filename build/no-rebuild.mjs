// `npm run rebuild:electron` and `npm run rebuild:node`: kept so that scripts which call them keep
// working, but there is nothing left to rebuild. The SQLite driver, better-sqlite3-multiple-ciphers
// 13, is a Node-API (version 10) module: its prebuilt binary loads unchanged in Node 22.14+/24 and in
// Electron 45 (which embeds Node 24). `rebuild:node` still checks that the driver opens a database
// in this Node, so a script that relied on it to repair the driver fails loudly if it cannot.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const target = process.argv[2] === 'electron' ? 'Electron' : 'Node';
const root = join(dirname(fileURLToPath(import.meta.url)), '..');

console.log(
  `Nothing to rebuild for ${target}: better-sqlite3-multiple-ciphers 13 is a Node-API module whose prebuilt binary ` +
    `(prebuilds/${process.platform}-${process.arch}.node) loads unchanged in Node 22.14+ and 24 and in Electron 45. ` +
    `(npm run rebuild:${target.toLowerCase()} is kept so that scripts calling it keep working; it changes nothing.)`,
);

if (target === 'Electron') {
  console.log('npm start checks that the driver loads in Electron before it opens the desktop window.');
  process.exit(0);
}

// In a child process: on a Node without Node-API 10 the driver crashes the process that loads it.
const probe = spawnSync(process.execPath, ['-e', "new (require('better-sqlite3-multiple-ciphers'))(':memory:').close()"], {
  cwd: root,
  encoding: 'utf8',
});
if (probe.status === 0) {
  console.log(`Checked: the driver opens a database in Node ${process.version}.`);
} else {
  const why = probe.signal
    ? `killed by ${probe.signal}`
    : (probe.stderr.split('\n').find((l) => /Error/.test(l)) ?? `exit ${probe.status}`);
  console.error(
    `better-sqlite3-multiple-ciphers does not load in Node ${process.version} (${why.trim()}). ` +
      'It needs Node 22.14 or newer (24 recommended) on linux, darwin or win32, x64 or arm64; see docs/running.md, "Set up, run, test".',
  );
  process.exit(1);
}
