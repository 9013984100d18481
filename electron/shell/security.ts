import { app, session, shell, type WebContents } from 'electron';
import { isAllowedExternalUrl } from '../../shared/security/csp.js';
import { APP_ORIGIN } from './protocol.js';

/**
 * Process-wide guards, installed before any window exists: no navigation away from the app,
 * no new windows (allowlisted https links go to the OS browser), no webviews, no permissions.
 */
/**
 * `issued` tells whether main itself handed out this exact URL (an authorization URI the
 * intermediary returned, for the consumer to visit): those open in the OS browser too, since the
 * data holder's host cannot be on a fixed allowlist. Text the renderer makes up never can.
 */
export function installSecurityGuards(issued: (url: string) => boolean = () => false): void {
  app.on('web-contents-created', (_event, contents: WebContents) => {
    contents.on('will-navigate', (event, url) => {
      if (!url.startsWith(`${APP_ORIGIN}/`)) event.preventDefault();
    });
    contents.on('will-redirect', (event, url) => {
      if (!url.startsWith(`${APP_ORIGIN}/`)) event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(({ url }) => {
      if (isAllowedExternalUrl(url) || (url.startsWith('https://') && issued(url))) void shell.openExternal(url);
      return { action: 'deny' };
    });
  });
}

export function denyAllPermissions(): void {
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
  session.defaultSession.setDevicePermissionHandler(() => false);
}
