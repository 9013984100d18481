import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { childScript, type ChildScript } from './ts-child.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** A script of test/helpers/ the tests run as a process (its name there). */
type HelperScript<T = ChildScript> = T extends `test/helpers/${infer S}` ? S : never;

/** A TypeScript helper (test/helpers/…) run as a process of its own, its output read line by line. */
export interface LineChild {
  process: ChildProcess;
  /** Every complete line it printed so far. */
  lines: string[];
  /** Resolves with the first line (printed so far or later) that passes `test`. */
  line(test: (line: string) => boolean): Promise<string>;
  /** Resolves once `count(lines)` reaches `n`. */
  count(n: number, count: (lines: readonly string[]) => number): Promise<void>;
  /** Resolves with the signal or `exit CODE` when it ends. */
  exited: Promise<string>;
}

/** Spawns `node` on the bundle of test/helpers/SCRIPT (test/helpers/ts-child.ts) with ARGS… in the repository, stderr passed through; `children` tracks the live ones. */
export function spawnLines(script: HelperScript, args: readonly string[], children?: Set<ChildProcess>): LineChild {
  const child = spawn(process.execPath, [childScript(`test/helpers/${script}`), ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children?.add(child);
  const lines: string[] = [];
  const waiting = new Set<() => boolean>();
  const settle = () => {
    for (const w of waiting) if (w()) waiting.delete(w);
  };
  let buffered = '';
  child.stdout!.on('data', (d: Buffer) => {
    buffered += d.toString();
    const parts = buffered.split('\n');
    buffered = parts.pop()!;
    lines.push(...parts);
    settle();
  });
  const exited = new Promise<string>((resolve) =>
    child.once('exit', (code, signal) => {
      children?.delete(child);
      resolve(signal ?? `exit ${code}`);
    }),
  );
  const wait = <T>(found: () => T | undefined) =>
    new Promise<T>((resolve) => {
      const check = () => {
        const value = found();
        if (value === undefined) return false;
        resolve(value);
        return true;
      };
      if (!check()) waiting.add(check);
    });
  return {
    process: child,
    lines,
    line: (test) => wait(() => lines.find(test)),
    count: (n, count) => wait(() => (count(lines) >= n ? true : undefined)).then(() => undefined),
    exited,
  };
}

/** Waits until `check` holds, trying every `everyMs`; fails naming `what` after `ms`. */
export async function until(check: () => boolean | Promise<boolean>, ms: number, what: string, everyMs = 100): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
