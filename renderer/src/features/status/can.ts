import { useSyncExternalStore } from 'react';
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
}

/**
 * The contract's role rules (roleRefusal). They live beside the contract's zod schemas (116 kB),
 * which the first screen's rows do not wait for: their loading starts with this module, beside the
 * first screen's, and the role checks read them once they have arrived (in practice before the
 * signed-in person's status has been read). role-rules.ts retries a failed load and says so.
 */
const roleRules = createRulesStore(() => import('../../../../shared/ipc/contract.js').then((m) => m.roleRefusal));
roleRules.start();

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
  if (role && rules.kind === 'loading') return { allowed: false, reason: CHECKING_ROLE, known: false };
  if (role && rules.kind === 'failed') return { allowed: false, reason: rules.message, known: false };
  const known = status !== undefined;
  const refused = role && rules.kind === 'ready' ? rules.rules(channel, role, opts.input) : null;
  if (refused) return { allowed: false, reason: refused, known };
  if (opts.online) {
    const actions = actionsAvailable(connection, status);
    if (!actions.available) return { allowed: false, reason: actions.reason, known };
  }
  return { allowed: true, reason: null, known };
}
