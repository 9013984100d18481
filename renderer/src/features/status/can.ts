import { useEffect, useRef, useSyncExternalStore } from 'react';
import type { Channel } from '../../../../shared/ipc/contract.js';
import { useSession } from '../../stores/session.js';
import { actionsAvailable, useAppStatus } from './app-status.js';
import { createRulesStore } from './role-rules.js';

export interface Can {
  allowed: boolean;
  /** Why not, in words for the disabled control's tooltip and label; null when allowed. */
  reason: string | null;
  /** Whether the status (who is signed in) has been read: until then the role is not known, and allowed. */
  known: boolean;
  /**
   * Not allowed only because the check is still under way (the role rules loading, the connection's
   * status not read yet): a moment, after which it is allowed or refused for a reason.
   */
  checking: boolean;
}

/**
 * The contract's role rules (roleRefusal). They live beside the contract's zod schemas (116 kB, some
 * 40 ms to run at 100k's cold start, in the first screen's way): they load once the first screen has
 * shown its rows (the shell's deferred parts: app/AppLayout.tsx), or as soon as a role check sees a
 * role, whichever comes first; until then a signed-in person's role-gated controls say they are being
 * checked. role-rules.ts retries a failed load and says so.
 */
const roleRules = createRulesStore(() => import('../../../../shared/ipc/contract.js').then((m) => m.roleRefusal));

/** Loads the role rules now if they are not there (resolves once they are, or could not be loaded). */
export function loadRoleRules(): Promise<unknown> {
  return roleRules.settled();
}

/** Said on a control while the role rules load (a moment, once): nothing is allowed before they are read. */
export const CHECKING_ROLE = 'Checking what your role may do…';

/**
 * Whether what calls `channel` can be done now, and if not, why: the signed-in person's role first
 * (the channel's roles in the contract, in the very sentence the server would answer with), then,
 * for what needs the intermediary (`online`), whether it can be reached. Without sign-in (solo
 * mode) every role check passes. `input`: the fields the call would set, when the contract asks more
 * of some (settings:set's sync schedule).
 *
 * What a role cannot do is shown disabled with this reason, never hidden: a user looks for it
 * where it always is, and learns why it is not theirs.
 */
export function useCan(channel: Channel, opts: { online?: boolean; input?: object } = {}): Can {
  // One reader of the status for the role and the connection (a screen checks several actions, and
  // redraws at each keystroke of a search).
  const status = useAppStatus().data;
  const connection = useSession((s) => s.connection);
  const role = status?.user?.role;
  const rules = useSyncExternalStore(roleRules.subscribe, roleRules.get);
  useEffect(() => {
    if (role) roleRules.start();
  }, [role]);
  if (role && rules.kind === 'loading') return { allowed: false, reason: CHECKING_ROLE, known: false, checking: true };
  if (role && rules.kind === 'failed') return { allowed: false, reason: rules.message, known: false, checking: false };
  const known = status !== undefined;
  const refused = role && rules.kind === 'ready' ? rules.rules(channel, role, opts.input) : null;
  if (refused) return { allowed: false, reason: refused, known, checking: false };
  if (opts.online) {
    const actions = actionsAvailable(connection, status);
    if (!actions.available) return { allowed: false, reason: actions.reason, known, checking: connection === 'connected' && !status };
  }
  return { allowed: true, reason: null, known, checking: false };
}

/**
 * A click on an action whose check is still under way is kept, not lost: `ask(key)` runs `run(key)`
 * now when `cans[key]` allows it, or once it does when it is still being checked (the role rules
 * or the status arriving just after the screen); a check that ends in a refusal drops the click (the
 * control then shows why). What a person clicked as a screen appeared happens (issue 39).
 */
export function useActionOnceChecked<K extends string>(cans: Record<K, Can>, run: (key: K) => void): (key: K) => void {
  const waiting = useRef<K | null>(null);
  const latest = useRef({ cans, run });
  // After every render: the checks redraw this component when they end (useCan's stores).
  useEffect(() => {
    latest.current = { cans, run };
    const key = waiting.current;
    if (!key || cans[key].checking) return;
    waiting.current = null;
    if (cans[key].allowed) run(key);
  });
  return (key: K) => {
    const now = latest.current.cans[key];
    if (now.allowed) latest.current.run(key);
    else if (now.checking) waiting.current = key;
  };
}
