import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

/**
 * Where all state lives: profiles, caches, keys, logs. One folder, chosen the same way by every
 * entry point (desktop, browser host, command line, tests), so two runs never share state by
 * accident: `--data-dir DIR` first, then CDR_CONSOLE_DATA_DIR, then the platform's app-data folder.
 */
export const APP_FOLDER_NAME = 'CDR Console';
export const DATA_DIR_ENV = 'CDR_CONSOLE_DATA_DIR';

export function platformDataDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = homedir(),
): string {
  // The same folder Electron's app.getPath('userData') uses for our productName.
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), APP_FOLDER_NAME);
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', APP_FOLDER_NAME);
  const xdg = env.XDG_CONFIG_HOME && isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : join(home, '.config');
  return join(xdg, APP_FOLDER_NAME);
}

export function resolveDataDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const chosen = flag ?? (env[DATA_DIR_ENV] || undefined) ?? platformDataDir(process.platform, env);
  return resolve(chosen);
}

/** Create the data directory (owner-only: it holds CDR data and credentials). */
export function ensureDataDir(dir: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/** Reads `--data-dir DIR` or `--data-dir=DIR` from an argv array, for entry points without a parser. */
export function dataDirFlag(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--data-dir') return argv[i + 1];
    if (arg.startsWith('--data-dir=')) return arg.slice('--data-dir='.length);
  }
  return undefined;
}
