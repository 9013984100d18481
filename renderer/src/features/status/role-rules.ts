import type { roleRefusal } from '../../../../shared/ipc/contract.js';

export type RoleRules = typeof roleRefusal;

/** What the role checks know of the contract's role rules: there, still loading, or not loadable. */
export type RulesState = { kind: 'loading' } | { kind: 'ready'; rules: RoleRules } | { kind: 'failed'; message: string };

/**
 * The role rules, loaded once from their own chunk (`load`) when first asked for (`start`), and read
 * by every role check through `subscribe`/`get` (React's useSyncExternalStore: a check drawn before
 * the rules arrived is drawn again when they do, however close the two come). A load that fails (a
 * network blip, a host restarted with a new build under the page) is tried again (`retries` more
 * times, `retryMs` apart); after that the checks say the rules could not be loaded, and the next
 * `start` (the next role check to mount) tries once more. Before, one failed chunk left every
 * role-gated control saying "Checking…" until a reload, with no error anywhere.
 */
export function createRulesStore(load: () => Promise<RoleRules>, opts: { retries?: number; retryMs?: number } = {}) {
  const retries = opts.retries ?? 2;
  const retryMs = opts.retryMs ?? 500;
  let state: RulesState = { kind: 'loading' };
  let inFlight = false;
  const listeners = new Set<() => void>();
  const set = (next: RulesState) => {
    state = next;
    for (const listener of listeners) listener();
  };
  const attempt = (left: number) => {
    inFlight = true;
    load().then(
      (rules) => {
        inFlight = false;
        set({ kind: 'ready', rules });
      },
      (error: unknown) => {
        if (left > 0) {
          setTimeout(() => attempt(left - 1), retryMs);
          return;
        }
        inFlight = false;
        const why = error instanceof Error ? error.message : String(error);
        set({ kind: 'failed', message: `The role rules could not be loaded (${why}); reload the console to try again.` });
      },
    );
  };
  const start = () => {
    if (state.kind === 'ready' || inFlight) return;
    if (state.kind === 'failed') set({ kind: 'loading' });
    attempt(retries);
  };
  /** Starts the load if it is not under way, and resolves once it has succeeded or given up. */
  const settled = (): Promise<RulesState> => {
    start();
    if (state.kind !== 'loading') return Promise.resolve(state);
    return new Promise((resolve) => {
      const heard = () => {
        if (state.kind === 'loading') return;
        listeners.delete(heard);
        resolve(state);
      };
      listeners.add(heard);
    });
  };
  return {
    start,
    settled,
    get: (): RulesState => state,
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
