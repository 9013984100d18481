import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import type { z } from 'zod';
import { CHANNELS, Empty, ROLES, contract, type Caller, type Channel, type ChannelSchema, type Role } from '../../shared/ipc/contract.js';
import { currentCaller, currentClient } from '../../electron/ipc/request-context.js';
import { createRouter, type Handlers } from '../../electron/ipc/router.js';
import { testHandlers } from '../helpers/handlers.js';

/**
 * Team mode's roles (issue 20): every channel states who may call it, and the router refuses the
 * others with FORBIDDEN before anything runs. The table below is written here on its own, by group,
 * not read from the contract: a change to a channel's roles, or a new channel, fails this test until
 * the table (and docs/team-server.md's, which it mirrors) says so too.
 */
const EVERYONE: readonly Role[] = ['viewer', 'compliance', 'support', 'admin'];
const TABLE: { group: string; roles: readonly Role[]; channels: Channel[] }[] = [
  {
    group: 'every screen and the data browser (reads), Sync now, checking the connection, product exports',
    roles: EVERYONE,
    channels: [
      'app:status',
      'app:reportError',
      'client:connect',
      'consents:list',
      'consents:count',
      'consents:options',
      'consents:ids',
      'consents:resolve',
      'consents:get',
      'reference:list',
      'sync:start',
      'sync:cancel',
      'sync:last',
      'events:failures',
      'events:list',
      'events:count',
      'events:days',
      'webhooks:summary',
      'audit:list',
      'audit:query',
      'audit:options',
      'operator:get',
      'jobs:list',
      'jobs:items',
      'settings:get',
      'settings:set',
      'reports:compliance',
      'reports:monthlyPacks',
      'profiles:list',
      'profiles:test',
      'data:list',
      'data:consents',
      'data:groups',
      'data:meta',
      'data:records',
      'data:sync',
      'products:list',
      'products:get',
      'products:versions',
      'products:export',
      'complaints:list',
      'alerts:list',
      'alerts:acknowledge',
      'alerts:markRead',
      'alerts:rules',
      'alerts:delivery',
      'biannual:list',
      'biannual:get',
    ],
  },
  {
    group:
      'exports of customer data, evidence packs, the audit log checked and exported, the compliance report and the complaints register exported, alert rules managed, the rule 9.4 report prepared, answered, counted again, signed off and exported',
    roles: ['compliance', 'admin'],
    channels: [
      'consents:export',
      'events:export',
      'data:export',
      'evidence:export',
      'audit:exportFile',
      'audit:export',
      'audit:verify',
      'audit:checkpoint',
      'reports:export',
      'reports:scheduleMonthlyPack',
      'reports:exportMonthlyPack',
      'complaints:export',
      'alerts:addRule',
      'alerts:removeRule',
      'alerts:evaluate',
      'alerts:testDelivery',
      'biannual:prepare',
      'biannual:answer',
      'biannual:recount',
      'biannual:signOff',
      'biannual:export',
    ],
  },
  {
    group: 'actions at the intermediary: create, update, extend/authorise, revoke, bulk revoke',
    roles: ['support', 'admin'],
    channels: [
      'consents:create',
      'consents:update',
      'consents:revoke',
      'bulk:revoke',
      'bulk:decide',
      'authorization:start',
      'authorization:decode',
      'authorization:complete',
      'sandbox:approve',
    ],
  },
  {
    group: 'following jobs: pause, resume, cancel, export the results; recording and changing complaints; silencing an alert rule',
    roles: ['compliance', 'support', 'admin'],
    channels: ['jobs:control', 'jobs:export', 'complaints:record', 'complaints:update', 'alerts:silence'],
  },
  {
    group: 'connection profiles and credentials, the operator, the cache, the users',
    roles: ['admin'],
    channels: [
      'profiles:save',
      'profiles:remove',
      'profiles:switch',
      'operator:set',
      'cache:reset',
      'users:list',
      'users:add',
      'users:update',
      'alerts:setDelivery',
    ],
  },
];

function person(role: Role | string): Caller {
  return { userId: `u-${role}`, displayName: `Pat ${role}`, role: role as Role, method: 'test' };
}

/** Every handler a spy answering nothing in particular (what matters is whether it is reached). */
function spies(): { handlers: Handlers; called: Set<string> } {
  const called = new Set<string>();
  const handlers = testHandlers(
    Object.fromEntries(
      CHANNELS.map((c) => [
        c,
        vi.fn(async () => {
          called.add(c);
          return {};
        }),
      ]),
    ) as Partial<Handlers>,
  );
  return { handlers, called };
}

describe('roles in the contract', () => {
  it('every channel states a valid, non-empty set of roles, admin among them, and its action in words', () => {
    for (const channel of CHANNELS) {
      const spec: ChannelSchema = contract[channel];
      expect(spec.roles.length, channel).toBeGreaterThan(0);
      expect(new Set(spec.roles).size, channel).toBe(spec.roles.length);
      for (const role of spec.roles) expect(ROLES, channel).toContain(role);
      expect(spec.roles, `${channel}: an admin can do everything`).toContain('admin');
      expect(spec.action, channel).toMatch(/^[A-Z][^.]{3,80}$/);
      for (const [field, permission] of Object.entries(spec.fields ?? {})) {
        expect(Object.keys((spec.input as z.ZodObject).shape), `${channel}.${field}`).toContain(field);
        expect(permission.roles, `${channel}.${field}`).toContain('admin');
        expect(permission.action, `${channel}.${field}`).toMatch(/^[A-Z][^.]{3,80}$/);
      }
    }
  });

  it('a channel without roles, or with none, does not compile', () => {
    // @ts-expect-error: roles and action are required of every channel
    const missing = { 'x:y': { input: Empty, output: Empty } } satisfies Record<string, ChannelSchema>;
    // @ts-expect-error: a channel nobody may call is a mistake
    const none = { 'x:y': { input: Empty, output: Empty, roles: [], action: 'Nothing' } } satisfies Record<string, ChannelSchema>;
    // @ts-expect-error: only the four roles exist
    const unknown = { 'x:y': { input: Empty, output: Empty, roles: ['root'], action: 'All' } } satisfies Record<string, ChannelSchema>;
    expect([missing, none, unknown]).toHaveLength(3);
  });

  it('the table of this test names every channel of the contract exactly once', () => {
    const listed = TABLE.flatMap((g) => g.channels);
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual([...CHANNELS].sort());
  });
});

describe("the documentation's role table (docs/team-server.md)", () => {
  it('says, for every channel, what the contract says', () => {
    const readme = readFileSync(new URL('../../docs/team-server.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('### Roles'), readme.indexOf('**A real deployment.**'));
    const documented = new Map<string, string[]>();
    for (const row of section.split('\n').filter((l) => l.startsWith('| `'))) {
      const [channels = '', roles = ''] = row.split('|').slice(1, 3);
      const set = roles.trim() === 'everyone' ? [...ROLES] : roles.split(',').map((r) => r.trim());
      for (const [, area, verbs] of channels.matchAll(/`([a-z]+):([A-Za-z/]+)`/g))
        for (const verb of verbs!.split('/')) if (!documented.has(`${area}:${verb}`)) documented.set(`${area}:${verb}`, set);
    }
    const wrong = CHANNELS.filter(
      (c) => JSON.stringify([...(documented.get(c) ?? [])].sort()) !== JSON.stringify([...contract[c].roles].sort()),
    );
    expect(wrong).toEqual([]);
    expect(documented.size).toBe(CHANNELS.length);
  });
});

describe('roles enforced by the router', () => {
  it('walks every channel with every role: what passes the role check is exactly the table', async () => {
    const { handlers } = spies();
    const router = createRouter({ handlers });
    const allowed = (channel: Channel) => TABLE.find((g) => g.channels.includes(channel))!.roles;
    const mismatches: string[] = [];
    for (const channel of CHANNELS) {
      for (const role of ROLES) {
        const r = await router.handle(channel, {}, true, { caller: person(role) });
        const refused = !r.ok && r.error.code === 'FORBIDDEN';
        if (refused === allowed(channel).includes(role)) mismatches.push(`${channel} × ${role}: ${refused ? 'refused' : 'allowed'}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('a refused request runs nothing, and is refused before its input is even checked', async () => {
    const { handlers, called } = spies();
    const router = createRouter({ handlers });
    for (const channel of CHANNELS) {
      if ((contract[channel].roles as readonly Role[]).includes('viewer')) continue;
      const garbage = { consentId: 'x'.repeat(10_000), deep: [[[[[[[{ '\u0000': 1 }]]]]]]] };
      const r = await router.handle(channel, garbage, true, { caller: person('viewer') });
      expect(r, channel).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    }
    expect([...called]).toEqual([]);
  });

  it('says what needs which role, and what the caller is', async () => {
    const router = createRouter({ handlers: spies().handlers });
    const refusal = async (channel: Channel, role: string, input: unknown = {}) => {
      const r = await router.handle(channel, input, true, { caller: person(role) });
      return r.ok ? null : r.error;
    };
    expect(await refusal('consents:revoke', 'viewer')).toEqual({
      code: 'FORBIDDEN',
      message: 'Revoking needs the support role; you are a viewer.',
    });
    expect((await refusal('bulk:revoke', 'compliance'))?.message).toBe(
      'Revoking in bulk needs the support role; you are a compliance officer.',
    );
    expect((await refusal('consents:export', 'support'))?.message).toBe(
      'Exporting consents needs the compliance role; you are a support agent.',
    );
    expect((await refusal('evidence:export', 'viewer'))?.message).toBe(
      'Exporting an evidence pack needs the compliance role; you are a viewer.',
    );
    expect((await refusal('jobs:control', 'viewer'))?.message).toBe(
      'Pausing, resuming or cancelling a job needs the compliance or support role; you are a viewer.',
    );
    expect((await refusal('profiles:save', 'support'))?.message).toBe(
      'Saving a connection profile needs the admin role; you are a support agent.',
    );
    expect((await refusal('cache:reset', 'compliance'))?.message).toBe(
      'Resetting the cache needs the admin role; you are a compliance officer.',
    );
    // A role the console does not know is refused everything, even reads.
    expect(await refusal('app:status', 'root')).toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringMatching(/^Your role \(root\) is not one/),
    });
    expect(await refusal('consents:list', '')).toMatchObject({ code: 'FORBIDDEN' });
  });

  it('settings: the theme, columns and saved views are everyone’s; the sync schedule and data sync an admin’s', async () => {
    const { handlers, called } = spies();
    const router = createRouter({ handlers });
    const as = (role: Role, input: unknown) => router.handle('settings:set', input, true, { caller: person(role) });
    for (const role of ROLES) {
      expect(await as(role, { theme: 'dark' }), role).not.toMatchObject({ error: { code: 'FORBIDDEN' } });
      expect(await as(role, { consentColumns: ['status'] }), role).not.toMatchObject({ error: { code: 'FORBIDDEN' } });
    }
    called.clear();
    for (const role of ['viewer', 'compliance', 'support'] as const) {
      expect(await as(role, { theme: 'dark', syncEveryMinutes: 5 })).toMatchObject({
        ok: false,
        error: {
          code: 'FORBIDDEN',
          message: `Changing the sync schedule needs the admin role; you are ${role === 'viewer' ? 'a viewer' : role === 'compliance' ? 'a compliance officer' : 'a support agent'}.`,
        },
      });
      expect(await as(role, { syncData: true })).toMatchObject({
        ok: false,
        error: { code: 'FORBIDDEN', message: expect.stringMatching(/^Changing whether Data API records are synced needs the admin role/) },
      });
    }
    expect([...called]).toEqual([]);
    expect(await as('admin', { syncEveryMinutes: 5, syncData: true })).not.toMatchObject({ error: { code: 'FORBIDDEN' } });
    expect(called.has('settings:set')).toBe(true);
  });

  it('without an identity (the desktop, the command line, the one-token browser host) every channel is open, as in solo mode', async () => {
    const router = createRouter({ handlers: spies().handlers });
    for (const channel of CHANNELS) {
      for (const request of [undefined, {}, { client: { address: '127.0.0.1', userAgent: 'test' } }]) {
        const r = await router.handle(channel, {}, true, request);
        expect(r, channel).not.toMatchObject({ error: { code: 'FORBIDDEN' } });
      }
    }
    const settings = await router.handle('settings:set', { syncEveryMinutes: 5 }, true);
    expect(settings).not.toMatchObject({ error: { code: 'FORBIDDEN' } });
  });

  it('the handler sees who called (request context), and nobody once outside the request', async () => {
    const seen: unknown[] = [];
    const router = createRouter({
      handlers: testHandlers({
        'sync:last': async () => {
          seen.push({ caller: currentCaller(), client: currentClient() });
          return null;
        },
      }),
    });
    const client = { address: '127.0.0.1', userAgent: 'test' };
    expect(await router.handle('sync:last', {}, true, { client, caller: person('support') })).toEqual({ ok: true, value: null });
    expect(await router.handle('sync:last', {}, true)).toEqual({ ok: true, value: null });
    expect(seen).toEqual([
      { caller: person('support'), client: '127.0.0.1 test' },
      { caller: undefined, client: null },
    ]);
    expect(currentCaller()).toBeUndefined();
  });

  it('an untrusted sender is still refused as such, whoever it claims to be', async () => {
    const router = createRouter({ handlers: spies().handlers });
    expect(await router.handle('app:status', {}, false, { caller: person('admin') })).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN_SENDER' },
    });
  });
});
