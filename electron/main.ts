import { app, type BrowserWindow, dialog } from 'electron';
import { join } from 'node:path';
import { startCoreHost, type CoreHost } from './core/core-host.js';
import { dataDirFlag, ensureDataDir, resolveDataDir } from './core/data-dir.js';
import { createFileLogger } from './core/log.js';
import { registerAppScheme, serveRenderer } from './shell/protocol.js';
import { saveDialogSink } from './shell/save-dialog.js';
import { createSafeStorageCipher } from './shell/safe-storage.js';
import { isAppUrl, restrictPermissions, installSecurityGuards } from './shell/security.js';
import { clientNavigation, openTeamClientWindow } from './shell/team-client-window.js';
import { readTeamClient } from './core/team-client.js';
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
  // Connected to a team server (Settings → Connect to a team server): the window is that server's console.
  const client = readTeamClient(dataDir);
  const server = client ? new URL(client.url) : null;
  const clientNavigates = server ? clientNavigation(server) : null;
  installSecurityGuards(
    (url) => cores?.core().actions.issuedLink(url) ?? false,
    clientNavigates ? (url, contents) => isAppUrl(url) || clientNavigates(url, contents) : isAppUrl,
  );

  let win: BrowserWindow | null = null;

  app.on('second-instance', () => {
    if (win) {
      if (win.isMinimized()) win.restore();
      win.focus();
    }
  });

  app.whenReady().then(async () => {
    restrictPermissions();
    if (server) {
      win = openTeamClientWindow(server, dataDir);
      win.on('closed', () => {
        win = null;
      });
      return;
    }
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
        // Settings → Connect to a team server: the address is kept (team-client.ts), then the desktop
        // starts again as that server's client.
        connectTeam: () => {
          app.relaunch();
          app.exit(0);
        },
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
