import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTeamConsole, signInCookie, startTeamHost, type TeamConsole, type TeamHost } from '../helpers/team-host.js';

/**
 * Each person's own view on a team server (issue 35): theme, columns and saved views were one file
 * per server, so a viewer changed the admin's columns and planted a saved view named "URGENT: revoke
 * all ACTIVE (per compliance)" in everyone's list, unaudited. Now they are each person's; views
 * shared with the whole team are an admin's, and audited.
 */
let team: TeamHost;
let ada: TeamConsole;
let vera: TeamConsole;
const view = (name: string) => ({
  name,
  filter: { statuses: ['ACTIVE'] },
  sort: { field: 'created', direction: 'asc' },
  columns: ['status', 'consumerEmail'],
});
type Got = {
  ok: boolean;
  value: { theme: string; consentColumns: string[]; savedViews: { name: string }[]; teamViews: { name: string }[] };
  error?: { code: string; message: string };
};

beforeAll(async () => {
  team = await startTeamHost({
    users: [
      ['ada', 'Ada Admin', 'admin'],
      ['vera', 'Vera Viewer', 'viewer'],
    ],
    consents: 5,
  });
  ada = await openTeamConsole(team, await signInCookie(team, 'ada'));
  vera = await openTeamConsole(team, await signInCookie(team, 'vera'));
}, 120_000);
afterAll(() => team?.close());

describe('views on a team server', () => {
  it('one person’s columns, theme and saved views are not another’s', async () => {
    expect(
      (
        (await vera.call('settings:set', {
          consentColumns: ['status'],
          theme: 'dark',
          savedViews: [view('URGENT: revoke all ACTIVE (per compliance)')],
        })) as Got
      ).ok,
    ).toBe(true);
    const mine = (await vera.call('settings:get', {})) as Got;
    expect(mine.value).toMatchObject({
      theme: 'dark',
      consentColumns: ['status'],
      savedViews: [{ name: 'URGENT: revoke all ACTIVE (per compliance)' }],
    });
    const hers = (await ada.call('settings:get', {})) as Got;
    expect(hers.value.theme).toBe('auto');
    expect(hers.value.consentColumns).not.toEqual(['status']);
    expect(hers.value.savedViews).toEqual([]);
    // A second console of the same person sees their own view.
    const again = await openTeamConsole(team, await signInCookie(team, 'vera'));
    expect(((await again.call('settings:get', {})) as Got).value.consentColumns).toEqual(['status']);
    again.ws.close();
  });

  it('a view shared with the team is an admin’s, shown to everyone, and audited', async () => {
    expect(await vera.call('settings:set', { teamViews: [view('Team view by a viewer')] })).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN', message: 'Sharing views with the team needs the admin role; you are a viewer.' },
    });
    expect(((await ada.call('settings:set', { teamViews: [view('Active, oldest first')] })) as Got).ok).toBe(true);
    expect(((await vera.call('settings:get', {})) as Got).value.teamViews.map((v) => v.name)).toEqual(['Active, oldest first']);
    const entry = (await team.core.stores.audit.entries()).filter((e) => e.action === 'settings:changed').at(-1);
    expect(entry).toMatchObject({ operator: 'ada (Ada Admin)', result: 'teamViews (none) → “Active, oldest first”' });
  });
});
