/**
 * Team mode's roles (issue 20): who may call which channel. Every channel of the contract states
 * its roles (contract/<domain>.ts: `roles`, with `action`, the words of a refusal); the router
 * checks them before anything else runs, for a caller that has an identity (a signed-in person on
 * a team server). Without one — the desktop, the command line, the one-token browser host — every
 * channel is open, as in solo mode.
 *
 * | role       | can                                                                                  |
 * |------------|--------------------------------------------------------------------------------------|
 * | viewer     | every screen and the data browser; no exports of customer data, no actions           |
 * | compliance | as viewer, plus exports, evidence packs, compliance report exports, audit check/export |
 * | support    | as viewer, plus revoke (one and bulk), update, extend, create, authorise             |
 * | admin      | everything, plus profiles and credentials, the operator's name, the sync schedule, cache reset |
 *
 * Kept free of zod: the renderer and the router both read it.
 */

export const ROLES = ['viewer', 'compliance', 'support', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** Who may call a channel: at least one role (a channel nobody may call does not compile). */
export type RoleSet = readonly [Role, ...Role[]];

/** The role sets the contract uses (admin is in every one: an admin can do everything). */
export const EVERYONE = ['viewer', 'compliance', 'support', 'admin'] as const satisfies RoleSet;
export const COMPLIANCE = ['compliance', 'admin'] as const satisfies RoleSet;
export const SUPPORT = ['support', 'admin'] as const satisfies RoleSet;
/** Following work the caller's team started: compliance's exports, support's bulk revocations. */
export const STAFF = ['compliance', 'support', 'admin'] as const satisfies RoleSet;
export const ADMIN = ['admin'] as const satisfies RoleSet;

/** Who is calling: the person a team server's sign-in identified (part 2 of issue 20 fills it). */
export interface Caller {
  userId: string;
  /** What they sign in with ("alice"); the audit log's operator is "alice (Alice Nguyen)". */
  userName?: string;
  displayName: string;
  role: Role;
  /** How they signed in (e.g. "password", "oidc"; tests: "test"). */
  method: string;
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** A role in a sentence: "you are a viewer". */
export const ROLE_AS: Record<Role, string> = {
  viewer: 'a viewer',
  compliance: 'a compliance officer',
  support: 'a support agent',
  admin: 'an admin',
};

/** What a channel states about who may call it. */
export interface Permission {
  roles: RoleSet;
  /** What the call does, in words that start a sentence: "Revoking", "Exporting consents". */
  action: string;
  /**
   * The call changes something though everyone may make it (their settings, a sync): on a team
   * server the caller is read again before it runs, as for every channel not open to everyone.
   */
  changes?: true;
}

/**
 * Whether a team server reads the caller's session, role and status again before running the channel
 * (one indexed read), rather than trusting what its connection was opened with: every channel not open
 * to everyone, and those that change something. A removal (a role changed, a user disabled, a
 * password reset, a sign-out) made on another server holds at the next such request (issue 35).
 */
export function needsCurrentCaller(permission: Permission): boolean {
  return permission.changes === true || permission.roles.length < ROLES.length;
}

/**
 * Why `role` may not do what `permission` allows, in a sentence, or null when it may:
 * "Revoking needs the support role; you are a viewer." The roles named are the least ones
 * (admin only when nothing else would do).
 */
export function refusalFor(permission: Permission, role: unknown): string | null {
  if (!isRole(role)) return `Your role (${String(role).slice(0, 40)}) is not one the console knows; ask an admin to set it.`;
  if (permission.roles.includes(role)) return null;
  const named = permission.roles.filter((r) => r !== 'admin');
  const needed = (named.length ? named : ['admin']).join(' or ');
  return `${permission.action} needs the ${needed} role; you are ${ROLE_AS[role]}.`;
}
