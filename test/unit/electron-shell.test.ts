import { EventEmitter } from 'node:events';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { emptySyncSummary } from '../helpers/summaries.js';
import { testHandlers } from '../helpers/handlers.js';

/**
 * The Electron shell's guards, tested under Node with a stand-in for the `electron` module (the
 * binary cannot run here). What is checked is our logic: which senders are trusted, which
 * navigations and windows are refused, which permissions are granted (none).
 */
const electron = vi.hoisted(() => {
  const handlers = new Map<string, (event: unknown, input: unknown) => unknown>();
  // A minimal emitter: vi.hoisted runs before imports, so node:events is not available yet.
  const listeners = new Map<string, ((...a: unknown[]) => void)[]>();
  const appEvents = {
    on: (name: string, fn: (...a: unknown[]) => void) => listeners.set(name, [...(listeners.get(name) ?? []), fn]),
    emit: (name: string, ...args: unknown[]) => (listeners.get(name) ?? []).forEach((fn) => fn(...args)),
    removeAllListeners: () => listeners.clear(),
  };
  return {
    handlers,
    appEvents,
    openExternal: vi.fn(async () => undefined),
    permission: { request: undefined as undefined | ((...a: unknown[]) => void), check: undefined as undefined | (() => boolean) },
  };
});

vi.mock('electron', () => ({
  app: { on: (name: string, fn: (...a: unknown[]) => void) => electron.appEvents.on(name, fn) },
  ipcMain: { handle: (channel: string, fn: (event: unknown, input: unknown) => unknown) => electron.handlers.set(channel, fn) },
  shell: { openExternal: electron.openExternal },
  session: {
    defaultSession: {
      setPermissionRequestHandler: (fn: (...a: unknown[]) => void) => (electron.permission.request = fn),
      setPermissionCheckHandler: (fn: () => boolean) => (electron.permission.check = fn),
      setDevicePermissionHandler: () => undefined,
    },
  },
  protocol: { registerSchemesAsPrivileged: () => undefined, handle: () => undefined },
  BrowserWindow: class {},
}));

const { bindIpc } = await import('../../electron/shell/window.js');
const { CHANNELS } = await import('../../shared/ipc/channels.js');
const { denyAllPermissions, installSecurityGuards } = await import('../../electron/shell/security.js');
const { createRouter } = await import('../../electron/ipc/router.js');
const { EventBus } = await import('../../electron/ipc/event-bus.js');

function fakeWindow() {
  const mainFrame = { url: 'app://console/index.html' };
  const webContents = { mainFrame, send: vi.fn() };
  return { webContents, isDestroyed: () => false };
}

describe('IPC binding in the Electron shell', () => {
  const win = fakeWindow();
  const router = createRouter({
    handlers: testHandlers({
      'app:status': async () => ({
        appVersion: '1',
        host: 'electron',
        profile: { id: 's', name: 'S', environment: 'sandbox', embedded: true },
        lastSyncAt: null,
        lastSyncError: null,
        online: false,
        syncing: false,
        consentCount: 0,
        keyStorage: { kind: 'key-file', description: 'Secrets are encrypted with a key file readable only by your user account.' },
      }),
      'consents:list': async () => ({ rows: [], total: 0, page: 1, pageSize: 1 }),
      'sync:start': async () => emptySyncSummary(),
    }),
  });
  const events = new EventBus();
  bindIpc(router, events, () => win as never);
  const invoke = (event: unknown) => electron.handlers.get('app:status')!(event, {}) as Promise<{ ok: boolean; error?: { code: string } }>;

  it('registers exactly one handler per channel', () => {
    expect([...electron.handlers.keys()].sort()).toEqual([...CHANNELS].sort());
    expect(electron.handlers.size).toBe(CHANNELS.length);
  });

  it('answers the top frame of the console window showing app://console', async () => {
    expect(await invoke({ sender: win.webContents, senderFrame: win.webContents.mainFrame })).toMatchObject({ ok: true });
  });

  it.each([
    ['another window', () => ({ sender: fakeWindow().webContents, senderFrame: win.webContents.mainFrame })],
    ['a sub-frame', () => ({ sender: win.webContents, senderFrame: { url: 'app://console/index.html' } })],
    ['a destroyed frame', () => ({ sender: win.webContents, senderFrame: null })],
  ])('refuses %s', async (_name, event) => {
    expect(await invoke(event())).toMatchObject({ ok: false, error: { code: 'FORBIDDEN_SENDER' } });
  });

  it('refuses the console window once it shows another origin', async () => {
    win.webContents.mainFrame.url = 'https://evil.example/';
    try {
      expect(await invoke({ sender: win.webContents, senderFrame: win.webContents.mainFrame })).toMatchObject({
        ok: false,
        error: { code: 'FORBIDDEN_SENDER' },
      });
    } finally {
      win.webContents.mainFrame.url = 'app://console/index.html';
    }
  });

  it('forwards validated events to the window', () => {
    events.emit('cache:changed', { entity: 'consents', count: 3 });
    expect(win.webContents.send).toHaveBeenCalledWith('cache:changed', { entity: 'consents', count: 3 });
    expect(() => events.emit('cache:changed', { entity: 'passwords' as never, count: 1 })).toThrow();
  });
});

describe('window security guards', () => {
  let contents: EventEmitter & {
    setWindowOpenHandler: (fn: (d: { url: string }) => { action: string }) => void;
    openHandler?: (d: { url: string }) => { action: string };
  };
  beforeEach(() => {
    electron.appEvents.removeAllListeners();
    installSecurityGuards((url) => url === 'https://bank.example/authorize?request_uri=urn:1');
    contents = Object.assign(new EventEmitter(), {
      setWindowOpenHandler(fn: (d: { url: string }) => { action: string }) {
        contents.openHandler = fn;
      },
    });
    electron.appEvents.emit('web-contents-created', {}, contents);
    electron.openExternal.mockClear();
  });

  const navigate = (name: string, url: string) => {
    const event = { preventDefault: vi.fn() };
    contents.emit(name, event, url);
    return event.preventDefault.mock.calls.length > 0;
  };

  it('blocks navigation and redirects away from the app', () => {
    expect(navigate('will-navigate', 'https://evil.example/')).toBe(true);
    expect(navigate('will-navigate', 'file:///etc/passwd')).toBe(true);
    expect(navigate('will-redirect', 'http://127.0.0.1:9/')).toBe(true);
    expect(navigate('will-navigate', 'app://console/index.html#/events')).toBe(false);
  });

  it('never opens a window; allowlisted https links go to the OS browser, others nowhere', () => {
    expect(contents.openHandler!({ url: 'https://www.oaic.gov.au/consumer-data-right' })).toEqual({ action: 'deny' });
    expect(electron.openExternal).toHaveBeenCalledWith('https://www.oaic.gov.au/consumer-data-right');
    expect(contents.openHandler!({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
    expect(contents.openHandler!({ url: 'smb://server/share' })).toEqual({ action: 'deny' });
    expect(electron.openExternal).toHaveBeenCalledTimes(1);
    // An authorization URI main issued opens too; a look-alike the renderer made up does not.
    contents.openHandler!({ url: 'https://bank.example/authorize?request_uri=urn:1' });
    contents.openHandler!({ url: 'https://bank.example/authorize?request_uri=urn:2' });
    expect(electron.openExternal).toHaveBeenLastCalledWith('https://bank.example/authorize?request_uri=urn:1');
    expect(electron.openExternal).toHaveBeenCalledTimes(2);
  });

  it('refuses to attach webviews', () => {
    const event = { preventDefault: vi.fn() };
    contents.emit('will-attach-webview', event, {}, {});
    expect(event.preventDefault).toHaveBeenCalled();
  });

  it('grants no permission', () => {
    denyAllPermissions();
    const callback = vi.fn();
    electron.permission.request!({}, 'media', callback);
    expect(callback).toHaveBeenCalledWith(false);
    expect(electron.permission.check!()).toBe(false);
  });
});
