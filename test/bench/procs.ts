import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The benchmark's processes: the sandbox on its own, and each measured task in a fresh process. */
export const root = fileURLToPath(new URL('../../', import.meta.url));
/** The profile the benchmark's data directories use, and the key of its own cache files. */
export const PROFILE = 'bench';
export const BENCH_KEY = 'be'.repeat(32);

export interface SandboxProcess {
  url: string;
  stop(): Promise<void>;
}

/** The intermediary sandbox in its own process (`npm run sandbox`), so it never shares a core or a heap with what is measured. */
export async function startSandboxProcess(consents: number, eventsPerConsent: number, extra: string[] = []): Promise<SandboxProcess> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(root, 'electron/sandbox/cli.ts'),
      '--consents',
      String(consents),
      '--events-per-consent',
      String(eventsPerConsent),
      ...extra,
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the sandbox exited with ${code}: ${out}`)));
  });
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * Runs one task of child.ts in a new process and returns the JSON it prints last. The task runs
 * from its bundle (build/bundle-bench.mjs), as the console runs from its own: no TypeScript loader
 * in the measured process.
 */
export function runChild<T>(task: string, args: Record<string, unknown>): Promise<T> {
  return new Promise((resolve, reject) => {
    // BENCH_CHILD_NODE_ARGS: Node options for the measured processes only (`--cpu-prof --cpu-prof-dir=DIR`).
    const nodeArgs = process.env.BENCH_CHILD_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
    const child: ChildProcess = spawn(process.execPath, [...nodeArgs, join(root, 'dist/bench/child.mjs'), task, JSON.stringify(args)], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => {
      const last = out.trim().split('\n').at(-1) ?? '';
      if (code !== 0) return reject(new Error(`bench task ${task} exited with ${code}: ${out.slice(-2000)}`));
      try {
        resolve(JSON.parse(last) as T);
      } catch {
        reject(new Error(`bench task ${task} printed no result: ${out.slice(-2000)}`));
      }
    });
  });
}

/**
 * Drops a file's pages from the operating system's cache (posix_fadvise DONTNEED, through GNU dd),
 * so the next read comes from the disk: a cold read, as after a reboot.
 */
export function dropFromOsCache(file: string): boolean {
  if (!existsSync(file)) return false;
  return spawnSync('dd', [`if=${file}`, 'iflag=nocache', 'count=0', 'status=none']).status === 0;
}
