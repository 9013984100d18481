import { EventEmitter } from 'node:events';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { emptySyncSummary } from '../helpers/summaries.js';
import { testHandlers } from '../helpers/handlers.js';

/**
 * The Electron shell's guards, tested under Node with a stand-in for the `electron` module (the
 * binary cannot run here). What is checked is our logic: which senders are trusted, which
 * navigations and windows are refused, which permissions are granted (clipboard writes by the
 * console's own page, nothing else), and the window's web preferences.
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
  type RequestHandler = (contents: unknown, permission: string, callback: (granted: boolean) => void, details: object) => void;
  type CheckHandler = (contents: unknown, permission: string, origin: string, details: object) => boolean;
  return {
    handlers,
    appEvents,
    enableSandbox: vi.fn(),
    openExternal: vi.fn(async () => undefined),
    permission: {
      request: undefined as undefined | RequestHandler,
      check: undefined as undefined | CheckHandler,
      device: undefined as undefined | ((details: object) => boolean),
    },
    windows: [] as { options: { webPreferences?: Record<string, unknown> }; loaded: string[] }[],
  };
});

vi.mock('electron', () => ({
  app: { on: (name: string, fn: (...a: unknown[]) => void) => electron.appEvents.on(name, fn), enableSandbox: electron.enableSandbox },
  ipcMain: { handle: (channel: string, fn: (event: unknown, input: unknown) => unknown) => electron.handlers.set(channel, fn) },
  shell: { openExternal: electron.openExternal },
  session: {
    defaultSession: {
      setPermissionRequestHandler: (fn: typeof electron.permission.request) => (electron.permission.request = fn),
      setPermissionCheckHandler: (fn: typeof electron.permission.check) => (electron.permission.check = fn),
      setDevicePermissionHandler: (fn: typeof electron.permission.device) => (electron.permission.device = fn),
    },
  },
  protocol: { registerSchemesAsPrivileged: () => undefined, handle: () => undefined },
  // Records what the shell asks of a window: its options and the URLs it loads.
  BrowserWindow: class {
    readonly loaded: string[] = [];
    constructor(readonly options: { webPreferences?: Record<string, unknown> }) {
      electron.windows.push(this);
    }
    once() {}
    loadURL(url: string) {
      this.loaded.push(url);
      return Promise.resolve();
    }
  },
}));

const { bindIpc, createMainWindow } = await import('../../electron/shell/window.js');
const { CHANNELS } = await import('../../shared/ipc/contract.js');
const { restrictPermissions, installSecurityGuards } = await import('../../electron/shell/security.js');
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

  // Electron 45 passes the URL on the event (the positional url argument is deprecated).
  const navigate = (name: string, url: string, isMainFrame = true) => {
    const event = { url, isMainFrame, preventDefault: vi.fn() };
    contents.emit(name, event);
    return event.preventDefault.mock.calls.length > 0;
  };

  it('sandboxes every renderer process-wide', () => {
    expect(electron.enableSandbox).toHaveBeenCalled();
  });

  it('blocks navigation and redirects away from the app', () => {
    expect(navigate('will-navigate', 'https://evil.example/')).toBe(true);
    expect(navigate('will-navigate', 'file:///etc/passwd')).toBe(true);
    expect(navigate('will-navigate', 'app://console.evil.example/')).toBe(true);
    expect(navigate('will-navigate', 'app://console@evil.example/')).toBe(true);
    expect(navigate('will-redirect', 'http://127.0.0.1:9/')).toBe(true);
    expect(navigate('will-navigate', 'app://console/index.html#/events')).toBe(false);
  });

  it('blocks sub-frame navigation away from the app too', () => {
    expect(navigate('will-frame-navigate', 'https://evil.example/', false)).toBe(true);
    expect(navigate('will-frame-navigate', 'javascript:alert(1)', false)).toBe(true);
    expect(navigate('will-frame-navigate', 'app://console/index.html', false)).toBe(false);
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
});

describe('permissions', () => {
  restrictPermissions();
  const page = { requestingUrl: 'app://console/index.html#/consents', isMainFrame: true };
  const request = (permission: string, details: object = page) => {
    const callback = vi.fn();
    electron.permission.request!({}, permission, callback, details);
    expect(callback).toHaveBeenCalledTimes(1);
    return callback.mock.calls[0]![0] as boolean;
  };
  const check = (permission: string, details: object = page, origin = 'app://console') =>
    electron.permission.check!({}, permission, origin, details);

  it("grants clipboard writes (the Copy buttons) to the console's own page in the top frame", () => {
    expect(request('clipboard-sanitized-write')).toBe(true);
    expect(check('clipboard-sanitized-write')).toBe(true);
  });

  it.each([
    ['a sub-frame', { requestingUrl: 'app://console/index.html', isMainFrame: false }],
    ['another origin', { requestingUrl: 'https://evil.example/', isMainFrame: true }],
    ['a look-alike origin', { requestingUrl: 'app://console.evil.example/', isMainFrame: true }],
  ])('refuses clipboard writes to %s', (_name, details) => {
    expect(request('clipboard-sanitized-write', details)).toBe(false);
    expect(check('clipboard-sanitized-write', details)).toBe(false);
  });

  it('refuses a check made on behalf of no document', () => {
    expect(check('clipboard-sanitized-write', { isMainFrame: true })).toBe(false);
  });

  it.each([
    'clipboard-read',
    'media',
    'display-capture',
    'notifications',
    'geolocation',
    'fullscreen',
    'pointerLock',
    'openExternal',
    'hid',
    'serial',
    'usb',
    'fileSystem',
    'persistent-storage',
    'unknown',
  ])('refuses %s, asked or checked, even to its own page', (permission) => {
    expect(request(permission)).toBe(false);
    expect(check(permission)).toBe(false);
  });

  it('refuses every device', () => {
    expect(electron.permission.device!({ deviceType: 'hid', origin: 'app://console', device: {} })).toBe(false);
  });
});

describe('the console window', () => {
  it("loads the UI from app://console with Electron's secure settings spelled out", () => {
    createMainWindow('/app/dist/electron/preload.cjs');
    const win = electron.windows.at(-1)!;
    expect(win.options.webPreferences).toEqual({
      preload: '/app/dist/electron/preload.cjs',
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
    });
    expect(win.loaded).toEqual(['app://console/index.html']);
  });
});
