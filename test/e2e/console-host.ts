import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Starts the console exactly as `npm run serve` does (tsx electron/host/cli.ts), in a fresh data
 * directory on a free port, and resolves with the URL it prints. Stops the process and removes
 * the directory on stop(); a timer kills it if a test forgets.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));

export interface ConsoleProcess {
  launchUrl: string;
  output: () => string;
  stop(): Promise<void>;
}

export async function startConsole(args: string[] = []): Promise<ConsoleProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cdr-e2e-'));
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', join(root, 'electron/host/cli.ts'), '--port', '0', '--data-dir', dataDir, ...args],
    {
      cwd: root,
      env: { ...process.env, CDR_CONSOLE_DATA_DIR: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const killer = setTimeout(() => child.kill('SIGKILL'), 5 * 60_000);
  let out = '';
  const launchUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`console did not start in 30 s:\n${out}`)), 30_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      // Wait for the initial sync too, so the first screen has data to show.
      const url = /CDR Console at (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(out)?.[1];
      if (url && /Synced \d+ consents|Initial sync failed/.test(out)) {
        clearTimeout(timer);
        resolve(url);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`console exited with ${code}:\n${out}`)));
  });
  return {
    launchUrl,
    output: () => out,
    async stop() {
      clearTimeout(killer);
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
