import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../electron/core/console-core.js';
import type { Caller } from '../../shared/ipc/roles.js';
import { PgDb } from '../../electron/core/postgres/db.js';
import { migrate } from '../../electron/core/postgres/migrations.js';
import { startSandbox, type RunningSandbox } from '../../electron/sandbox/server.js';
import { freshDatabase, type TestDatabase } from '../helpers/pg.js';
import { writeRemoteProfile } from '../helpers/remote.js';
import { startTeamCore } from '../helpers/team-core.js';
import { startSmtpSink } from '../helpers/smtp.js';
import { tempDir } from '../helpers/temp.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- envelopes are read as loose JSON */

/**
 * Issue 38's "two team servers send each alert once": two team servers on one PostgreSQL store and
 * one data directory (as docs/team-server.md runs them), each checking the rules on its own — at
 * the same moments, several times — send one e-mail when the alert fires and one when it resolves,
 * received by a real SMTP server (the `smtp-server` package). The audit log says the same: one
 * firing, one resolution, one delivery of each.
 */
let sandbox: RunningSandbox;
let database: TestDatabase;
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
const servers: { core: Core; db: PgDb; me: { id: string } }[] = [];

beforeAll(async () => {
  smtp = await startSmtpSink();
  sandbox = await startSandbox({ seed: 31, consents: 40 });
  database = await freshDatabase();
  const owner = new PgDb(database.url, { max: 2 });
  await migrate(owner);
  await owner.close();
  const dataDir = tempDir('cdr-team-alerts-');
  writeRemoteProfile(dataDir, sandbox.url);
  servers.push(await startTeamCore(dataDir, database.url, { syncEveryMinutes: 0 }));
  servers.push(await startTeamCore(dataDir, database.url, { syncEveryMinutes: 0 }));
}, 60_000);
afterAll(async () => {
  for (const s of servers) {
    await s.core.close().catch(() => undefined);
    await s.db.close().catch(() => undefined);
  }
  await database?.drop();
  await sandbox?.close();
  await smtp?.close();
});

const ok = async (core: Core, channel: string, input: unknown, caller?: Caller): Promise<any> => {
  const e = (await core.router.handle(channel, input, true, caller ? { caller } : undefined)) as any;
  if (!e.ok) throw new Error(`${channel}: ${e.error.code} ${e.error.message}`);
  return e.value;
};
/** Both servers check every rule at once, `times` times over. */
async function bothEvaluate(times: number): Promise<string[]> {
  const outcomes: string[] = [];
  for (let i = 0; i < times; i++) {
    const answers = await Promise.all(servers.map((s) => ok(s.core, 'alerts:evaluate', {})));
    for (const a of answers) outcomes.push(...a.map((t: any) => t.outcome));
  }
  return outcomes;
}
const subjects = () => smtp.mails.map((m) => /^Subject: (.*)$/m.exec(m)?.[1]);

describe('alerts on two team servers', () => {
  it('send each alert once: one e-mail when it fires, one when it resolves, however often both check', async () => {
    const [a, b] = servers as [(typeof servers)[0], (typeof servers)[0]];
    expect(a.me.id).not.toBe(b.me.id);
    // Only this test's rule: the rule 9.4 reminder every store starts with depends on the date.
    await ok(a.core, 'alerts:removeRule', { id: 'rule94-reminder' });
    const port = smtp.port;
    await ok(a.core, 'alerts:setDelivery', {
      email: { smtpUrl: `smtp://127.0.0.1:${port}`, from: 'console@recipient.example', to: ['oncall@recipient.example'] },
      webhook: null,
      consoleUrl: null,
    });
    // Set on one server, read by the other (the data directory's file they share).
    expect((await ok(b.core, 'alerts:delivery', {})).email).toMatchObject({ to: ['oncall@recipient.example'] });
    await ok(b.core, 'alerts:addRule', { kind: 'sync-stale', params: { hours: 6 } });
    expect(await ok(a.core, 'alerts:rules', {})).toHaveLength(1);

    // No sync has finished yet: the rule fires. Both servers check it, three times at once.
    const firing = await bothEvaluate(3);
    expect(firing.filter((o) => o === 'opened')).toHaveLength(1);
    await expect.poll(() => smtp.mails.length, { timeout: 15_000 }).toBe(1);
    expect(subjects()).toEqual(['[CDR Console] Firing: Sync stale or failing']);
    expect(smtp.mails[0]).toContain('No sync has finished yet');

    // One server syncs; both check again at once: resolved, told once.
    const summary = await a.core.sync({ data: false });
    expect(summary.failures).toEqual([]);
    const resolving = await bothEvaluate(3);
    // The sync's own check may have resolved it before these: one resolution in all, either way.
    expect(resolving.filter((o) => o === 'resolved').length).toBeLessThanOrEqual(1);
    await expect.poll(() => smtp.mails.length, { timeout: 15_000 }).toBe(2);
    expect(subjects()).toEqual(['[CDR Console] Firing: Sync stale or failing', '[CDR Console] Resolved: Sync stale or failing']);
    // Nothing more arrives: a second message would have been sent by now.
    await bothEvaluate(2);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(smtp.mails).toHaveLength(2);

    const actions = async (action: string) =>
      (await ok(b.core, 'audit:query', { filter: { action }, offset: 0, limit: 20 })).rows as { result: string }[];
    expect(await actions('alert:firing')).toHaveLength(1);
    expect(await actions('alert:resolved')).toHaveLength(1);
    expect(await actions('alert:delivered')).toHaveLength(2);
    const list = await ok(b.core, 'alerts:list', {});
    expect(list.alerts.map((x: any) => x.state)).toEqual(['resolved']);
  });

  it('each person has their own unread alerts, on every server; an alert that resolves after being read is unread again', async () => {
    const [a, b] = servers as [(typeof servers)[0], (typeof servers)[0]];
    const ana: Caller = { userId: 'u-ana', userName: 'ana', displayName: 'Ana Analyst', role: 'compliance', method: 'test' };
    const ben: Caller = { userId: 'u-ben', userName: 'ben', displayName: 'Ben Support', role: 'support', method: 'test' };
    const unread = async (server: (typeof servers)[0], who: Caller) => {
      const l = await ok(server.core, 'alerts:list', {}, who);
      return { count: l.unread, ids: l.alerts.filter((x: any) => x.unread).map((x: any) => x.id) };
    };
    // The first test's alert, resolved: nobody has read it yet.
    const [resolved] = (await ok(a.core, 'alerts:list', {})).alerts;
    expect(await unread(a, ana)).toEqual({ count: 1, ids: [resolved.id] });
    expect(await ok(a.core, 'alerts:markRead', { ids: [resolved.id, 'no-such-alert'] }, ana)).toEqual({ marked: 1 });
    // Read on one server, read on the other; Ben's is still unread.
    expect((await unread(b, ana)).count).toBe(0);
    expect(await unread(b, ben)).toEqual({ count: 1, ids: [resolved.id] });

    // The rule fires again (a sync fails): a new alert, unread by both.
    const faults = `${sandbox.url}/__sandbox/faults`;
    await fetch(faults, { method: 'POST', body: JSON.stringify({ spec: '503:n8:/consents/v2' }) });
    try {
      const failed = await a.core.sync({ data: false });
      expect(failed.failures).not.toEqual([]);
    } finally {
      await fetch(faults, { method: 'DELETE' });
    }
    await bothEvaluate(1);
    const firing = (await ok(b.core, 'alerts:list', {})).alerts.find((x: any) => x.state === 'firing');
    expect(firing).toBeTruthy();
    expect((await unread(a, ana)).ids).toEqual([firing.id]);
    // Ana acknowledges it (which reads it); Ben has not read it.
    await ok(b.core, 'alerts:acknowledge', { id: firing.id }, ana);
    expect((await unread(a, ana)).count).toBe(0);
    expect((await unread(a, ben)).ids.sort()).toEqual([firing.id, resolved.id].sort());

    // It resolves: news again for Ana, who read it while it fired.
    expect((await a.core.sync({ data: false })).failures).toEqual([]);
    await bothEvaluate(1);
    expect((await ok(a.core, 'alerts:list', {})).alerts.every((x: any) => x.state === 'resolved')).toBe(true);
    expect((await unread(b, ana)).ids).toEqual([firing.id]);
  });
});
