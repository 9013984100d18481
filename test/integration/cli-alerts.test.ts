import { beforeAll, describe, expect, it } from 'vitest';
import { cliProcess } from '../helpers/cli-process.js';
import { tempDir } from '../helpers/temp.js';

/**
 * `cli alerts list|add|remove|test` and `cli complaints` as a script runs them (issue 38): real
 * processes on the embedded sandbox's profile, through the contract's channels — a rule added,
 * refused out of its bounds in the contract's words, checked after a sync, listed, removed.
 */
let dataDir: string;
const cli = cliProcess(() => dataDir);

beforeAll(async () => {
  dataDir = tempDir();
  const sync = await cli(['sync']);
  expect(sync.code, sync.err).toBe(0);
}, 120_000);

describe('cli alerts and complaints', () => {
  it('adds a rule, refuses one out of bounds, checks the rules, lists what fired, removes the rule', async () => {
    // Every console starts with the rule 9.4 report's reminder; removed, so what fires below is this test's.
    const first = await cli(['alerts', 'list', '--json']);
    expect(first.json().rules).toEqual([expect.objectContaining({ id: 'rule94-reminder', kind: 'report-unsigned', enabled: true })]);
    expect((await cli(['alerts', 'remove', 'rule94-reminder'])).out).toBe('Removed rule94-reminder.\n');
    const added = await cli(['alerts', 'add', 'expiring-consents', '--within-days', '90']);
    expect(added.code, added.err).toBe(0);
    const [, id] = /^Added (\S+): Consents whose sharing ends within 90 days \(once a day\)$/m.exec(added.out) ?? [];
    expect(id).toBeTruthy();

    const refused = await cli(['alerts', 'add', 'webhook-failures', '--rate-percent', '101']);
    expect(refused.code).not.toBe(0);
    expect(refused.err).toContain('Or this share of deliveries failing (%): 101 is outside 1–100.');
    const unknown = await cli(['alerts', 'add', 'coffee-low']);
    expect(unknown.code).not.toBe(0);

    // One data holder's consents: the rule names it; a data holder the console does not know is refused.
    const [row] = (await cli(['consents', '--limit', '1', '--json'])).json();
    const { consent } = (await cli(['consent', row.consentId, '--json'])).json();
    const scoped = await cli(['alerts', 'add', 'max-retries', '--data-holder', consent.dataHolderBrandId]);
    expect(scoped.code, scoped.err).toBe(0);
    expect(scoped.out).toMatch(/^Added \S+: /);
    expect(scoped.out).toContain(`: Webhook deliveries that reached max retries at ${consent.dataHolderName}: 1 or more in 1 hour\n`);
    expect((await cli(['alerts', 'remove', /^Added (\S+):/.exec(scoped.out)![1]!])).code).toBe(0);
    const nowhere = await cli(['alerts', 'add', 'max-retries', '--data-holder', 'no-such-holder']);
    expect(nowhere.code).not.toBe(0);
    expect(nowhere.err).toContain('No data holder no-such-holder is known to the console');

    const test = await cli(['alerts', 'test']);
    expect(test.code, test.err).toBe(0);
    expect(test.out).toMatch(
      // The table cuts a long rule at 48 characters, as every table of the command line does.
      /Consents whose sharing ends within 90 days \(onc…\s+opened\s+\d+ active consents? ends? sharing within 90 days/,
    );

    const list = await cli(['alerts', 'list', '--json']);
    expect(list.code, list.err).toBe(0);
    const { rules, alerts } = list.json();
    expect(rules).toEqual([expect.objectContaining({ id, kind: 'expiring-consents', params: { withinDays: 90 } })]);
    expect(alerts).toEqual([expect.objectContaining({ ruleId: id, state: 'firing', title: 'Consents expiring soon (daily digest)' })]);

    const removed = await cli(['alerts', 'remove', id!]);
    expect(removed.out).toBe(`Removed ${id}.\n`);
    expect((await cli(['alerts', 'list', '--json'])).json()).toEqual({ rules: [], alerts: [] });
  });

  it('lists the complaints register, empty and then filtered', async () => {
    const empty = await cli(['complaints']);
    expect(empty.code, empty.err).toBe(0);
    expect(empty.out).toBe('No complaint.\n');
    const json = await cli(['complaints', '--status', 'open', '--json']);
    expect(json.json()).toEqual([]);
    const bad = await cli(['complaints', '--status', 'pending']);
    expect(bad.code).toBe(2);
  });
});
