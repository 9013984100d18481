import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_ENDED } from '../../electron/host/server.js';
import { openTeamConsole, signInCookie, startTeamHost, type TeamConsole, type TeamHost } from '../helpers/team-host.js';

/**
 * A removal takes effect on every server of the team at once (issue 35). Two team servers on one
 * PostgreSQL, linked as `npm run team` links them: an admin demoted, disabled or whose password is
 * reset on server 1 kept acting from a console open on server 2 until that server's 30-second check
 * of its sessions (29–30 requests answered in the window: setting their own role back, re-enabling
 * themselves, resetting another admin's password). Now server 2 reads the person again before
 * anything that changes something or is not everyone's, and the live link closes their console.
 */
let one: TeamHost;
let two: TeamHost;

beforeAll(async () => {
  one = await startTeamHost({
    users: [
      ['ada', 'Ada Admin', 'admin'],
      ['bea', 'Bea Boss', 'admin'],
      ['cal', 'Cal Third', 'admin'],
      ['sam', 'Sam Support', 'support'],
    ],
    consents: 20,
    live: true,
  });
  two = await startTeamHost({ users: [], second: one, live: true });
}, 120_000);
afterAll(async () => {
  await two?.close();
  await one?.close();
});

async function idOf(admin: TeamConsole, name: string): Promise<string> {
  const list = (await admin.call('users:list', {})) as { ok: true; value: { users: { id: string; name: string }[] } };
  return list.value.users.find((u) => u.name === name)!.id;
}

/**
 * `victim` sends `attempt` over and over on server 2 while `change` runs on server 1; resolves with
 * what was answered to the requests sent after the change was answered, and how long the victim's
 * console stayed open after it.
 */
async function race(victim: TeamConsole, attempt: () => Promise<{ ok: boolean }>, change: () => Promise<{ ok: boolean }>) {
  let changedAt = Infinity;
  const after: { ok: boolean; code?: string | undefined }[] = [];
  let stop = false;
  const hammer = (async () => {
    while (!stop) {
      const sentAt = performance.now();
      const r = (await Promise.race([attempt(), victim.closed.then(() => null)])) as { ok: boolean; error?: { code: string } } | null;
      if (r === null) break;
      if (sentAt > changedAt) after.push({ ok: r.ok, code: r.error?.code });
    }
  })();
  await new Promise((r) => setTimeout(r, 50));
  const changed = await change();
  changedAt = performance.now();
  expect(changed.ok).toBe(true);
  const closed = await victim.closed;
  const closedAfterMs = performance.now() - changedAt;
  stop = true;
  await hammer;
  return { after, closed, closedAfterMs };
}

describe('a removal on one server holds on the other at once', () => {
  it('a demoted admin cannot set their role back from a console on the other server', async () => {
    const bea = await openTeamConsole(one, await signInCookie(one, 'bea'));
    const ada = await openTeamConsole(two, await signInCookie(two, 'ada'));
    const adaId = await idOf(bea, 'ada');
    const { after, closed, closedAfterMs } = await race(
      ada,
      () => ada.call('users:update', { id: adaId, role: 'admin' }),
      () => bea.call('users:update', { id: adaId, role: 'viewer' }),
    );
    expect(after.filter((r) => r.ok)).toEqual([]);
    expect(closed.code).toBe(SESSION_ENDED);
    expect(closedAfterMs).toBeLessThan(5_000); // the live link, not the 30-second check
    // Still a viewer.
    expect((await bea.call('users:list', {})) as unknown).toMatchObject({
      value: { users: expect.arrayContaining([expect.objectContaining({ name: 'ada', role: 'viewer' })]) as unknown },
    });
    await bea.call('users:update', { id: adaId, role: 'admin' });
    bea.ws.close();
  });

  it('a disabled admin cannot enable themselves; one whose password was reset cannot reset another admin’s', async () => {
    const bea = await openTeamConsole(one, await signInCookie(one, 'bea'));
    const ada = await openTeamConsole(two, await signInCookie(two, 'ada'));
    const adaId = await idOf(bea, 'ada');
    const disabled = await race(
      ada,
      () => ada.call('users:update', { id: adaId, disabled: false }),
      () => bea.call('users:update', { id: adaId, disabled: true }),
    );
    expect(disabled.after.filter((r) => r.ok)).toEqual([]);
    expect(disabled.closed.code).toBe(SESSION_ENDED);
    await bea.call('users:update', { id: adaId, disabled: false });

    const again = await openTeamConsole(two, await signInCookie(two, 'ada'));
    const calId = await idOf(bea, 'cal');
    let resets = 0;
    const reset = await race(
      again,
      // Until her own password is reset, ada may reset cal's (she is an admin); not one moment after.
      () => again.call('users:update', { id: calId, password: `cal password ${++resets}` }),
      () => bea.call('users:update', { id: adaId, password: 'a new password for ada' }),
    );
    expect(reset.after.filter((r) => r.ok)).toEqual([]);
    expect(reset.closed.code).toBe(SESSION_ENDED);
    bea.ws.close();
  });

  it('without the live link, the next change is still refused: the person is read again before it runs', async () => {
    // The notice is lost (the link is down): the router's fresh read holds on its own.
    const bea = await openTeamConsole(one, await signInCookie(one, 'bea'));
    const sam = await openTeamConsole(two, await signInCookie(two, 'sam'));
    const samId = await idOf(bea, 'sam');
    const heard = two.people.heardEnded.bind(two.people);
    two.people.heardEnded = () => undefined;
    try {
      expect((await bea.call('users:update', { id: samId, role: 'viewer' })).ok).toBe(true);
      // A read open to everyone still answers until the 30-second check…
      expect((await sam.call('consents:count', { filter: {} })).ok).toBe(true);
      // …but a revoke (support's) is refused, and the console is closed.
      const revoke = await sam.call('consents:revoke', { consentId: 'c-1', reason: 'x' });
      expect(revoke).toMatchObject({ ok: false, error: { code: 'UNAUTHORIZED', message: /^Your session has ended/ } });
      expect((await sam.closed).code).toBe(SESSION_ENDED);
    } finally {
      two.people.heardEnded = heard;
    }
    bea.ws.close();
  });
});
