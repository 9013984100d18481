import { BrowserWindow, ipcMain, type IpcMainInvokeEvent, type WebPreferences } from 'electron';
import { join } from 'node:path';
import { CHANNELS } from '../../shared/ipc/contract.js';
import type { EventBus } from '../ipc/event-bus.js';
import type { Router } from '../ipc/router.js';
import { APP_ORIGIN } from './protocol.js';

/**
 * The console window's web preferences: Electron 45's secure defaults spelled out so nobody flips
 * them by accident, plus the few that are not defaults (WebSQL is on by default; spellcheck would
 * send nothing anywhere but is not wanted).
 */
export const secureWebPreferences = (preloadPath: string) =>
  ({
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webviewTag: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    plugins: false,
    navigateOnDragDrop: false,
    enableWebSQL: false,
    spellcheck: false,
  }) satisfies WebPreferences;

/** The console window. */
export function createMainWindow(preloadPath: string): BrowserWindow {
  const win = new BrowserWindow({
    width: 1400,
    height: 900,
    minWidth: 960,
    minHeight: 600,
    title: 'CDR Console',
    show: false,
    webPreferences: secureWebPreferences(preloadPath),
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
