import { describe, expect, it, vi } from 'vitest';
import { methodName } from '../../shared/ipc/channels.js';
import { CHANNELS } from '../../shared/ipc/contract.js';
import { CONSENT_SORT_FIELDS, contract } from '../../shared/ipc/contract.js';
import { CoreError, createRouter, type Handlers } from '../../electron/ipc/router.js';
import { channelOfMethod, createConsoleClient } from '../../renderer/src/bridge/client.js';
import type { Transport } from '../../renderer/src/bridge/transport.js';
import { IpcError } from '../../shared/ipc/errors.js';
import { emptySyncSummary } from '../helpers/summaries.js';
import { testHandlers } from '../helpers/handlers.js';

const status = {
  appVersion: '1.0.0',
  host: 'browser' as const,
  profile: { id: 'sandbox', name: 'Sandbox', environment: 'sandbox' as const, embedded: true },
  lastSyncAt: null,
  lastSyncError: null,
  online: true,
  syncing: false,
  consentCount: 0,
  keyStorage: { kind: 'key-file' as const, description: 'Secrets are encrypted with a key file readable only by your user account.' },
};

function handlers(overrides: Partial<Handlers> = {}): Handlers {
  return testHandlers({
    'app:status': async () => status,
    'consents:list': async () => ({ rows: [] }),
    'sync:start': async () => emptySyncSummary(),
    ...overrides,
  });
}

const listInput = { filter: {}, offset: 0, limit: 50, sort: { field: 'created', direction: 'desc' } };

describe('IPC router', () => {
  it('answers a valid request with {ok: true, value}', async () => {
    const router = createRouter({ handlers: handlers() });
    expect(await router.handle('consents:list', listInput, true)).toEqual({
      ok: true,
      value: { rows: [] },
    });
  });

  it('refuses a request from an untrusted sender before running anything', async () => {
    const spy = vi.fn(async () => status);
    const router = createRouter({ handlers: handlers({ 'app:status': spy }) });
    const result = await router.handle('app:status', {}, false);
    expect(result).toMatchObject({ ok: false, error: { code: 'FORBIDDEN_SENDER' } });
    expect(spy).not.toHaveBeenCalled();
  });

  it('refuses an unknown channel, and does not echo an unbounded name', async () => {
    const router = createRouter({ handlers: handlers() });
    const result = await router.handle('fs:readFile'.padEnd(5000, 'x'), {}, true);
    expect(result).toMatchObject({ ok: false, error: { code: 'UNKNOWN_CHANNEL' } });
    expect(JSON.stringify(result).length).toBeLessThan(300);
    expect(await router.handle({ toString: () => 'x' }, {}, true)).toMatchObject({ ok: false, error: { code: 'UNKNOWN_CHANNEL' } });
  });

  it.each([
    ['a window over the limit', { ...listInput, limit: 100_000 }, 'limit'],
    [
      'an unknown sort column (SQL in disguise)',
      { ...listInput, sort: { field: 'created; DROP TABLE consents', direction: 'asc' } },
      'sort.field',
    ],
    ['an extra field', { ...listInput, sql: 'select 1' }, ''],
    ['a string offset', { ...listInput, offset: '1' }, 'offset'],
    ['an unknown filter', { ...listInput, filter: { sql: 'x' } }, 'filter'],
    ['a date range that is not a time', { ...listInput, filter: { created: { from: 'yesterday' } } }, 'filter.created.from'],
    ['no input at all', undefined, ''],
  ])('rejects %s with INVALID_INPUT naming the field', async (_name, input, path) => {
    const spy = vi.fn();
    const router = createRouter({ handlers: handlers({ 'consents:list': spy }) });
    const result = await router.handle('consents:list', input, true);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('INVALID_INPUT');
    expect(result.error.message).toContain('consents:list');
    if (path) expect(result.error.path).toBe(path);
    expect(spy).not.toHaveBeenCalled();
  });

  it('passes a deliberate CoreError through with its code and message', async () => {
    const router = createRouter({
      handlers: handlers({
        'sync:start': async () => {
          throw new CoreError('BUSY', 'A sync is already running.');
        },
      }),
    });
    expect(await router.handle('sync:start', {}, true)).toEqual({
      ok: false,
      error: { code: 'BUSY', message: 'A sync is already running.' },
    });
  });

  it('hides the text of an unexpected error (it may hold internals) and reports it to the log', async () => {
    const onInternalError = vi.fn();
    const router = createRouter({
      onInternalError,
      handlers: handlers({
        'app:status': async () => {
          throw new Error('SQLITE_CORRUPT at /home/alice/secret/path');
        },
      }),
    });
    const result = await router.handle('app:status', {}, true);
    expect(result).toEqual({ ok: false, error: { code: 'INTERNAL', message: 'Internal error while handling app:status.' } });
    expect(onInternalError).toHaveBeenCalledOnce();
  });

  it('refuses to hand the renderer an output that breaks the contract', async () => {
    const router = createRouter({ handlers: handlers({ 'app:status': async () => ({ ...status, consentCount: -1 }) }) });
    expect(await router.handle('app:status', {}, true)).toMatchObject({
      ok: false,
      error: { code: 'INVALID_OUTPUT', path: 'consentCount' },
    });
  });

  it('caps list pages in the contract itself', () => {
    const row = (i: number) => ({
      ...Object.fromEntries(CONSENT_SORT_FIELDS.map((f) => [f, null])),
      consentId: String(i),
      dataHolderBrandId: null,
      useCaseId: null,
    });
    const rows = Array.from({ length: 501 }, (_, i) => row(i));
    expect(contract['consents:list'].output.safeParse({ rows: rows.slice(0, 500) }).success).toBe(true);
    expect(contract['consents:list'].output.safeParse({ rows }).success).toBe(false);
  });

  it('derives one bridge method name per channel', () => {
    // The preload builds one function per channel from these names: they must be distinct,
    // and each must be the channel's area followed by its capitalised verb.
    const names = CHANNELS.map(methodName);
    expect(new Set(names).size).toBe(CHANNELS.length);
    for (const [i, channel] of CHANNELS.entries()) {
      const [area, verb] = channel.split(':') as [string, string];
      expect(names[i]).toBe(area + verb.charAt(0).toUpperCase() + verb.slice(1));
    }
    expect(methodName('consents:list')).toBe('consentsList');
    expect(methodName('audit:exportFile')).toBe('auditExportFile');
    expect(methodName('bulk:revoke')).toBe('bulkRevoke');
  });

  it("the renderer's client sends each method on its channel, without a list of the channels", async () => {
    // The client makes its methods from their names (it loads without the contract's schemas):
    // every channel's method name leads back to that channel, and nothing else is a method.
    for (const channel of CHANNELS) expect(channelOfMethod(methodName(channel))).toBe(channel);
    const sent: [string, unknown][] = [];
    const transport: Transport = {
      kind: 'browser',
      invoke: async (channel, input) =>
        (sent.push([channel, input]), channel === 'consents:get')
          ? { ok: false, error: { code: 'NOT_FOUND', message: 'No such consent.' } }
          : { ok: true, value: { echoed: channel } },
      subscribe: () => () => undefined,
      onConnectionChange: () => () => undefined,
    };
    const client = createConsoleClient(transport);
    for (const channel of CHANNELS) {
      if (channel === 'consents:get') continue;
      const method = (client as unknown as Record<string, (input: unknown) => Promise<unknown>>)[methodName(channel)]!;
      await expect(method({ n: 1 })).resolves.toEqual({ echoed: channel });
    }
    expect(sent.map(([c]) => c)).toEqual(CHANNELS.filter((c) => c !== 'consents:get'));
    const refused = await client.consentsGet({ consentId: 'x' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(IpcError);
    expect(refused).toMatchObject({ code: 'NOT_FOUND', message: 'No such consent.' });
    // Not thenable (a promise resolving to the client must not take it for one), nor anything else.
    for (const name of ['then', 'toJSON', 'consents', 'Consents', 'consents_list', '$$typeof'])
      expect((client as unknown as Record<string, unknown>)[name]).toBeUndefined();
    expect(String(client)).toBe('[object Object]');
    await expect(Promise.resolve(client)).resolves.toBe(client);
    expect(client.hostKind).toBe('browser');
  });
});
