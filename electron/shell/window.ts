import { BrowserWindow, ipcMain, type IpcMainInvokeEvent } from 'electron';
import { join } from 'node:path';
import { CHANNELS } from '../../shared/ipc/channels.js';
import type { EventBus } from '../ipc/event-bus.js';
import type { Router } from '../ipc/router.js';
import { APP_ORIGIN } from './protocol.js';

/** The console window, with the secure defaults spelled out so nobody flips them by accident. */
export function createMainWindow(preloadPath: string): BrowserWindow {
  const win = new BrowserWindow({
    width: 1400,
    height: 900,
    minWidth: 960,
    minHeight: 600,
    title: 'CDR Console',
    show: false,
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      spellcheck: false,
    },
  });
  win.once('ready-to-show', () => win.show());
  void win.loadURL(`${APP_ORIGIN}/index.html`);
  return win;
}

/** Requests are answered only when they come from the top frame of our window showing our UI. */
function isTrustedSender(event: IpcMainInvokeEvent, getWindow: () => BrowserWindow | null): boolean {
  const win = getWindow();
  const frame = event.senderFrame;
  return (
    win !== null &&
    event.sender === win.webContents &&
    frame !== null &&
    frame === event.sender.mainFrame &&
    frame.url.startsWith(`${APP_ORIGIN}/`)
  );
}

export function bindIpc(router: Router, events: EventBus, getWindow: () => BrowserWindow | null): void {
  for (const channel of CHANNELS) {
    ipcMain.handle(channel, (event, input: unknown) => router.handle(channel, input, isTrustedSender(event, getWindow)));
  }
  events.subscribe((event, payload) => {
    const win = getWindow();
    if (win && !win.isDestroyed()) win.webContents.send(event, payload);
  });
}

export function preloadPathNextTo(mainDir: string): string {
  return join(mainDir, 'preload.cjs');
}
