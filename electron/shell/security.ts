import { app, session, shell, type WebContents } from 'electron';
import { isAllowedExternalUrl } from '../../shared/security/csp.js';
import { APP_ORIGIN } from './protocol.js';

/** True for a URL of the console's own UI (app://console/…). */
export const isAppUrl = (url: string): boolean => url.startsWith(`${APP_ORIGIN}/`);

/**
 * Process-wide guards, installed before the app is ready and before any window exists: every
 * renderer sandboxed, no navigation away from the app (main frame or sub-frame, redirects
 * included), no new windows (allowlisted https links go to the OS browser), no webviews.
 *
 * `issued` tells whether main itself handed out this exact URL (an authorization URI the
 * intermediary returned, for the consumer to visit): those open in the OS browser too, since the
 * data holder's host cannot be on a fixed allowlist. Text the renderer makes up never can.
 */
export function installSecurityGuards(
  issued: (url: string) => boolean = () => false,
  mayNavigate: (url: string, contents: WebContents) => boolean = isAppUrl,
): void {
  // Electron sandboxes renderers by default since 20; this also covers any renderer created
  // without our webPreferences (a DevTools window, a future second window).
  app.enableSandbox();
  app.on('web-contents-created', (_event, contents: WebContents) => {
    contents.on('will-navigate', (event) => {
      if (!mayNavigate(event.url, contents)) event.preventDefault();
    });
    contents.on('will-frame-navigate', (event) => {
      if (!mayNavigate(event.url, contents)) event.preventDefault();
    });
    contents.on('will-redirect', (event) => {
      if (!mayNavigate(event.url, contents)) event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(({ url }) => {
      if (isAllowedExternalUrl(url) || (url.startsWith('https://') && issued(url))) void shell.openExternal(url);
      return { action: 'deny' };
    });
  });
}

/**
 * The only permission the console uses: writing text to the clipboard (its Copy buttons call
 * navigator.clipboard.writeText, which Electron gates as "clipboard-sanitized-write"), granted to
 * the console's own page in the top frame. Reading the clipboard, notifications, media, devices,
 * fullscreen, opening external protocols and every other permission are refused, asked or checked.
 */
export const GRANTED_PERMISSIONS = ['clipboard-sanitized-write'] as const;

export function restrictPermissions(ses: Electron.Session = session.defaultSession, own: (url: string) => boolean = isAppUrl): void {
  const granted = (permission: string, url: string | undefined, isMainFrame: boolean) =>
    (GRANTED_PERMISSIONS as readonly string[]).includes(permission) && isMainFrame && url !== undefined && own(url);
  ses.setPermissionRequestHandler((_contents, permission, callback, details) =>
    callback(granted(permission, details.requestingUrl, details.isMainFrame)),
  );
  // A check not made on behalf of a document (no requesting URL) is refused.
  ses.setPermissionCheckHandler((_contents, permission, _origin, details) =>
    granted(permission, details.requestingUrl, details.isMainFrame),
  );
  // HID, serial and USB devices: never.
  ses.setDevicePermissionHandler(() => false);
}
