// `npm run check`: the type checks (one per tsconfig), lint and the format check, two at a time
// (the CI machine has 2 cores: the checks one after another took about 110 s there). Each check's
// output is printed whole when it ends, so two never interleave; the exit code is 1 when any failed.
import { spawn } from 'node:child_process';
import { cpus } from 'node:os';

const checks = [
  ['typecheck: test', 'npx', ['tsc', '-p', 'test']],
  ['typecheck: renderer', 'npx', ['tsc', '-p', 'renderer']],
  ['lint', 'npx', ['eslint', '--max-warnings', '0', '.']],
  ['typecheck: electron', 'npx', ['tsc', '-p', 'electron']],
  ['format', 'npx', ['prettier', '--check', '.']],
  ['typecheck: shared', 'npx', ['tsc', '-p', 'shared']],
];

function run([label, command, args]) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      if (out.trim()) process.stdout.write(`${out.trimEnd()}\n`);
      console.log(`${code === 0 ? 'ok' : 'FAILED'}: ${label} (${seconds} s)`);
      resolve(code === 0);
    });
  });
}

const queue = [...checks];
let failed = false;
const lane = async () => {
  for (let next = queue.shift(); next; next = queue.shift()) if (!(await run(next))) failed = true;
};
await Promise.all(Array.from({ length: Math.min(2, Math.max(1, cpus().length)) }, lane));
process.exit(failed ? 1 : 0);
