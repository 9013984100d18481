import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The layering rules of DESIGN.md are lint rules; these tests feed deliberately wrong imports to
 * ESLint with the project's own config and expect them to fail (and the right ones to pass).
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const eslint = new ESLint({ cwd: root });

async function restrictedImports(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('layering lint', () => {
  it.each([
    [
      'renderer/src/screens/Bad.tsx',
      "import { startCore } from '../../../electron/core/console-core.js';\nvoid startCore;",
      /must not import from electron/,
    ],
    ['renderer/src/Bad.ts', "import { ipcRenderer } from 'electron';\nvoid ipcRenderer;", /Only the Electron shell/],
    ['renderer/src/Bad.ts', "import { readFileSync } from 'node:fs';\nvoid readFileSync;", /main-process only/],
    ['renderer/src/Bad.ts', "import { readFileSync } from 'fs';\nvoid readFileSync;", /main-process only/],
    ['shared/ipc/Bad.ts', "import { EventBus } from '../../electron/ipc/event-bus.js';\nvoid EventBus;", /must not import from electron/],
    ['shared/Bad.ts', "import { theme } from '../renderer/src/app/theme.js';\nvoid theme;", /Only the renderer/],
    ['shared/Bad.ts', "import { createHash } from 'node:crypto';\nvoid createHash;", /main-process only/],
    ['shared/Bad.ts', "import { app } from 'electron';\nvoid app;", /Only the Electron shell/],
    ['electron/core/Bad.ts', "import { safeStorage } from 'electron';\nvoid safeStorage;", /Only the Electron shell/],
    ['electron/core/Bad.ts', "import { app } from 'electron/main';\nvoid app;", /Only the Electron shell/],
    ['electron/host/Bad.ts', "import { theme } from '../../renderer/src/app/theme.js';\nvoid theme;", /Only the renderer/],
    ['electron/core/consents/Bad.ts', "import { openCache } from '../cache/database.js';\nvoid openCache;", /through their ports/],
    ['electron/core/sync/handlers.ts', "import type { Db } from '../cache/db.js';\nexport type X = Db;", /through their ports/],
    [
      'electron/core/postgres/Bad.ts',
      "import { isoMillis } from '../cache/payload-codec.js';\nvoid isoMillis;",
      /shares nothing with the SQLite adapter/,
    ],
    ['electron/core/exports/Bad.ts', "import Database from 'better-sqlite3-multiple-ciphers';\nvoid Database;", /through their ports/],
  ])('fails %s importing across a boundary', async (file, code, message) => {
    const messages = await restrictedImports(file, code);
    expect(messages.length).toBeGreaterThan(0);
    expect(messages.join('\n')).toMatch(message);
  });

  it.each([
    ['electron/main.ts', "import { app } from 'electron';\nvoid app;"],
    ['electron/preload.ts', "import { contextBridge } from 'electron';\nvoid contextBridge;"],
    ['electron/shell/Other.ts', "import { BrowserWindow } from 'electron';\nvoid BrowserWindow;"],
    [
      'electron/core/Ok.ts',
      "import { readFileSync } from 'node:fs';\nimport { contract } from '../../shared/ipc/contract.js';\nvoid readFileSync; void contract;",
    ],
    ['renderer/src/Ok.ts', "import { contract } from '../../shared/ipc/contract.js';\nvoid contract;"],
    ['shared/Ok.ts', "import { z } from 'zod';\nvoid z;"],
    ['electron/core/cache/Ok.ts', "import type { Db } from './db.js';\nexport type X = Db;"],
    ['electron/core/console-core.ts', "import { openProfileCache } from './cache/profile-cache.js';\nvoid openProfileCache;"],
  ])('allows %s its own imports', async (file, code) => {
    expect(await restrictedImports(file, code)).toEqual([]);
  });

  it.each([
    ['renderer/src/features/Bad.tsx', 'export const f = new Intl.NumberFormat(navigator.language);'],
    ['renderer/src/ui/chart/Bad.ts', "export const t = (n: number) => n.toLocaleString('en-AU');"],
    ['shared/Bad.ts', 'export const d = (x: Date) => x.toLocaleDateString();'],
  ])('refuses Intl and toLocale*String outside ui/locale.ts (%s)', async (file, code) => {
    const [result] = await eslint.lintText(code, { filePath: file });
    expect(
      result!.messages
        .filter((m) => m.ruleId === 'no-restricted-syntax')
        .map((m) => m.message)
        .join('\n'),
    ).toMatch(/locale\.ts/);
  });

  it('lets ui/locale.ts make them', async () => {
    const [result] = await eslint.lintText("export const f = new Intl.NumberFormat('en-AU');", { filePath: 'renderer/src/ui/locale.ts' });
    expect(result!.messages.filter((m) => m.ruleId === 'no-restricted-syntax')).toEqual([]);
  });
});
