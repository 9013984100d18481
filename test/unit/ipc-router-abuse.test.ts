import { describe, expect, it, vi } from 'vitest';
import { createRouter } from '../../electron/ipc/router.js';
import { MAX_INPUT_DEPTH, MAX_INPUT_VALUES } from '../../electron/ipc/input-guard.js';
import { testHandlers } from '../helpers/handlers.js';

/**
 * The Electron IPC path: ipcMain hands the router whatever a renderer sent, by structured clone,
 * with no size limit and cycles allowed. Hostile shapes are refused as INVALID_INPUT, naming where,
 * before any handler runs, and without exhausting the stack.
 */
function setup() {
  const list = vi.fn(async () => ({ rows: [] }));
  const revoke = vi.fn(async () => {
    throw new Error('must not run');
  });
  const router = createRouter({ handlers: testHandlers({ 'consents:list': list, 'consents:revoke': revoke }) });
  return { router, list, revoke };
}

const listInput = { filter: {}, offset: 0, limit: 10, sort: { field: 'created', direction: 'desc' } };

function nested(depth: number): unknown {
  let v: unknown = 'leaf';
  for (let i = 0; i < depth; i++) v = { filter: v };
  return v;
}

describe('IPC router under hostile input (the Electron path)', () => {
  it('refuses nesting a million levels deep, saying how deep is allowed', async () => {
    const { router, list } = setup();
    const answer = await router.handle('consents:list', { ...listInput, filter: nested(1_000_000) }, true);
    expect(answer).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(!answer.ok && answer.error.message).toMatch(new RegExp(`nested more than ${MAX_INPUT_DEPTH} levels deep`));
    expect(list).not.toHaveBeenCalled();
  });

  it('refuses an array of a million values and a cyclic object', async () => {
    const { router, list } = setup();
    const huge = await router.handle('consents:list', { ...listInput, filter: { statuses: new Array(1_000_000).fill('ACTIVE') } }, true);
    expect(huge).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(!huge.ok && huge.error.message).toMatch(new RegExp(`more than ${MAX_INPUT_VALUES} values`));
    const cyclic: Record<string, unknown> = { ...listInput };
    cyclic.self = cyclic;
    expect(await router.handle('consents:list', cyclic, true)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(list).not.toHaveBeenCalled();
  });

  it('refuses a 50 MB string with a short message', async () => {
    const { router, revoke } = setup();
    const answer = await router.handle('consents:revoke', { consentId: 'c'.repeat(50_000_000), reason: 'r' }, true);
    expect(answer).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', path: 'consentId' } });
    expect(JSON.stringify(answer).length).toBeLessThan(500);
    expect(revoke).not.toHaveBeenCalled();
  });

  it('refuses NULs in values and in field names, naming the field', async () => {
    const { router, list } = setup();
    expect(await router.handle('consents:list', { ...listInput, filter: { search: 'a\0b' } }, true)).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT', path: 'filter.search', message: expect.stringMatching(/NUL character/) as unknown as string },
    });
    expect(await router.handle('consents:list', { ...listInput, ['fil\0ter']: {} }, true)).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT' },
    });
    expect(list).not.toHaveBeenCalled();
  });

  it('refuses prototype keys and a field name of 100,000 characters with a bounded message', async () => {
    const { router, list } = setup();
    for (const key of ['__proto__', 'constructor', 'prototype', 'k'.repeat(100_000)]) {
      const input: Record<string, unknown> = { ...listInput };
      Object.defineProperty(input, key, { value: { polluted: true }, enumerable: true });
      const answer = await router.handle('consents:list', input, true);
      expect(answer).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
      expect(JSON.stringify(answer).length).toBeLessThan(600);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(list).not.toHaveBeenCalled();
  });

  it('still answers the same request when it is well-formed', async () => {
    const { router, list } = setup();
    expect(await router.handle('consents:list', { ...listInput, filter: { search: 'a b \ud800' } }, true)).toEqual({
      ok: true,
      value: { rows: [] },
    });
    expect(list).toHaveBeenCalledTimes(1);
  });
});
