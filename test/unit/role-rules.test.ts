import { describe, expect, it, vi } from 'vitest';
import { createRulesStore, type RoleRules } from '../../renderer/src/features/status/role-rules.js';

const rules: RoleRules = () => null;
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the role rules store (status/role-rules.ts)', () => {
  it('is loading, then ready once the rules have arrived, and tells its listeners', async () => {
    const store = createRulesStore(async () => rules);
    const heard = vi.fn();
    store.subscribe(heard);
    await settle();
    // Nothing loads until someone asks (the first role check with a role).
    expect(store.get()).toEqual({ kind: 'loading' });
    store.start();
    await settle();
    expect(store.get()).toEqual({ kind: 'ready', rules });
    expect(heard).toHaveBeenCalled();
  });

  it('loads once however many checks start it', async () => {
    const load = vi.fn(async () => rules);
    const store = createRulesStore(load);
    store.subscribe(() => {});
    expect(load).not.toHaveBeenCalled();
    store.start();
    store.start();
    await settle();
    store.start();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('tries a failed load again, and is ready when a retry succeeds', async () => {
    let calls = 0;
    const store = createRulesStore(
      async () => {
        calls += 1;
        if (calls === 1) throw new TypeError('Failed to fetch dynamically imported module');
        return rules;
      },
      { retryMs: 1 },
    );
    store.start();
    await vi.waitFor(() => expect(store.get().kind).toBe('ready'));
    expect(calls).toBe(2);
  });

  it('says the rules could not be loaded when every try fails, and tries again for the next check', async () => {
    let fail = true;
    const load = vi.fn(async () => {
      if (fail) throw new TypeError('Failed to fetch dynamically imported module');
      return rules;
    });
    const store = createRulesStore(load, { retries: 2, retryMs: 1 });
    store.start();
    await vi.waitFor(() => expect(store.get().kind).toBe('failed'));
    expect(load).toHaveBeenCalledTimes(3);
    expect(store.get()).toEqual({
      kind: 'failed',
      message: 'The role rules could not be loaded (Failed to fetch dynamically imported module); reload the console to try again.',
    });
    fail = false;
    const heard = vi.fn();
    store.subscribe(heard);
    store.start();
    expect(store.get().kind).toBe('loading');
    await vi.waitFor(() => expect(store.get().kind).toBe('ready'));
    expect(heard).toHaveBeenCalled();
  });
});
