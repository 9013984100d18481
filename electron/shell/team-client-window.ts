import { escapeHtml } from '../../shared/text/escape-html.js';
import { app, BrowserWindow, Menu, session, type WebContents } from 'electron';
import { clearTeamClient, clientMayNavigate } from '../core/team-client.js';
import { restrictPermissions } from './security.js';
import { secureWebPreferences } from './window.js';

/**
 * The desktop as a team server's client (core/team-client.ts): the window shows the server's own
 * console, in a session of its own (its cookie kept by Chromium, encrypted with the OS keychain's
 * key where there is one), with no preload: the remote page gets no bridge into this process. No
 * core runs, so no intermediary credentials and no CDR cache are opened. When the server cannot be
 * reached the window says so and tries again by itself; once the console is up, its own status
 * bar says when the connection drops and it reconnects (read-only meanwhile). The menu's "Switch to
 * solo mode" forgets the server and starts the desktop on its own cache again.
 */
export const CLIENT_PARTITION = 'persist:team-client';
const RETRY_MS = 10_000;

function unreachablePage(server: URL, why: string): string {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>CDR Console</title>
<style>body{font:15px/1.5 system-ui,sans-serif;margin:0;display:grid;place-items:center;min-height:100vh;background:#f6f7f9;color:#1f2328}
@media (prefers-color-scheme:dark){body{background:#16181d;color:#e6e8eb}}main{max-width:520px;padding:24px}</style></head>
<body><main role="status"><h1>The team server cannot be reached</h1><p>${escapeHtml(server.origin)} did not answer (${escapeHtml(why)}).</p>
<p>Trying again every ${RETRY_MS / 1000} seconds. To work on this computer's own cache instead, choose Console → Switch to solo mode.</p></main></body></html>`;
  return `data:text/html;charset=utf-8,${encodeURIComponent(html)}`;
}

export function openTeamClientWindow(server: URL, dataDir: string): BrowserWindow {
  const ses = session.fromPartition(CLIENT_PARTITION);
  restrictPermissions(ses, (url) => url.startsWith(`${server.origin}/`));
  const { preload: _none, ...prefs } = secureWebPreferences('');
  void _none;
  const win = new BrowserWindow({
    width: 1400,
    height: 900,
    minWidth: 960,
    minHeight: 600,
    title: `CDR Console — ${server.host}`,
    show: false,
    webPreferences: { ...prefs, partition: CLIENT_PARTITION },
  });
  win.once('ready-to-show', () => win.show());
  let retry: ReturnType<typeof setTimeout> | undefined;
  const load = () => void win.loadURL(server.origin).catch(() => undefined);
  win.webContents.on('did-fail-load', (_e, code, description, url, isMainFrame) => {
    // -3: a load replaced by another (not a failure).
    if (!isMainFrame || code === -3 || !url.startsWith(server.origin)) return;
    void win.loadURL(unreachablePage(server, description || `error ${code}`));
    if (!win.isVisible()) win.show();
    clearTimeout(retry);
    retry = setTimeout(load, RETRY_MS);
  });
  win.on('closed', () => clearTimeout(retry));
  Menu.setApplicationMenu(
    Menu.buildFromTemplate([
      {
        label: 'Console',
        submenu: [
          { label: `Connected to ${server.host}`, enabled: false },
          {
            label: 'Switch to solo mode',
            click: () => {
              // The solo cache was never touched: the desktop starts on it as it was.
              clearTeamClient(dataDir);
              app.relaunch();
              app.exit(0);
            },
          },
          { type: 'separator' },
          { role: 'quit' },
        ],
      },
      { role: 'editMenu' },
      { role: 'viewMenu' },
    ]),
  );
  load();
  return win;
}

/** Where the window may go in client mode: the server, and https pages of its single sign-on. */
export function clientNavigation(server: URL): (url: string, contents: WebContents) => boolean {
  const providers = new Set<string>();
  return (url, contents) => clientMayNavigate(url, server, contents.getURL(), providers);
}
