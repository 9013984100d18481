import { app, type BrowserWindow, dialog } from 'electron';
import { join } from 'node:path';
import { startCoreHost, type CoreHost } from './core/core-host.js';
import { dataDirFlag, ensureDataDir, resolveDataDir } from './core/data-dir.js';
import { createFileLogger } from './core/log.js';
import { registerAppScheme, serveRenderer } from './shell/protocol.js';
import { saveDialogSink } from './shell/save-dialog.js';
import { createSafeStorageCipher } from './shell/safe-storage.js';
import { restrictPermissions, installSecurityGuards } from './shell/security.js';
import { bindIpc, createMainWindow, preloadPathNextTo } from './shell/window.js';

/**
 * The Electron shell: lifecycle, single instance, security, protocol and IPC wiring.
 * Everything else is the core, which runs the same under plain Node (browser host, tests).
 * Bundled to dist/electron/main.cjs; __dirname is that folder.
 */
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  const dataDir = ensureDataDir(resolveDataDir(dataDirFlag(process.argv)));
  app.setPath('userData', dataDir);
  registerAppScheme();
  let cores: CoreHost | undefined;
  installSecurityGuards((url) => cores?.core().actions.issuedLink(url) ?? false);

  let win: BrowserWindow | null = null;

  app.on('second-instance', () => {
    if (win) {
      if (win.isMinimized()) win.restore();
      win.focus();
    }
  });

  app.whenReady().then(async () => {
    restrictPermissions();
    serveRenderer(join(__dirname, '..', 'renderer'));
    const log = createFileLogger(dataDir);
    try {
      cores = await startCoreHost({
        dataDir,
        host: 'electron',
        appVersion: app.getVersion(),
        log,
        cipher: createSafeStorageCipher(),
        syncEveryMinutes: 15,
        files: saveDialogSink(() => win),
      });
    } catch (error) {
      dialog.showErrorBox('CDR Console could not start', (error as Error).message);
      app.exit(1);
      return;
    }
    bindIpc(cores.router, cores.events, () => win);
    win = createMainWindow(preloadPathNextTo(__dirname));
    win.on('closed', () => {
      win = null;
    });
    cores
      .core()
      .sync()
      .catch(() => undefined); // failures show in the status bar
  });

  app.on('window-all-closed', () => app.quit());
  app.on('before-quit', () => {
    void cores?.close();
  });
}
