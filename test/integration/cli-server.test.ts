import { spawn } from 'node:child_process';
import { CLI } from '../helpers/cli-command.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { appHandlers } from '../../electron/core/app/handlers.js';
import { probeTeamServer, readTeamClient } from '../../electron/core/team-client.js';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsentRow } from '../../shared/ipc/contract.js';
import { startTeamHost, type TeamHost } from '../helpers/team-host.js';
import { tempDir } from '../helpers/temp.js';

/**
 * The command line against a team server (issue 20): `--server URL --user NAME`, the password from
 * CDR_CONSOLE_PASSWORD. Every command the person's role allows runs on the server as them; a
 * viewer's revoke exits non-zero with the server's FORBIDDEN reason, and the intermediary never
 * sees a DELETE; a support agent's goes through and is audited under their name.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
let team: TeamHost;
let active: string[];

beforeAll(async () => {
  team = await startTeamHost({
    users: [
      ['sam', 'Sam Support', 'support'],
      ['vera', 'Vera Viewer', 'viewer'],
      ['cleo', 'Cleo Compliance', 'compliance'],
    ],
  });
  const list = (await team.core.router.handle(
    'consents:list',
    { filter: { statuses: ['ACTIVE'] }, sort: { field: 'created', direction: 'asc' }, offset: 0, limit: 5 },
    true,
  )) as { ok: true; value: { rows: ConsentRow[] } };
  active = list.value.rows.map((r) => r.consentId);
}, 120_000);
afterAll(() => team?.close());

const cli = (user: string, args: string[], password = `${user} password 1`) =>
  new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
    const child = spawn(process.execPath, [...CLI, '--data-dir', tempDir(), '--server', team.origin, '--user', user, ...args], {
      cwd: root,
      env: { ...process.env, CDR_CONSOLE_DATA_DIR: '', CDR_CONSOLE_PASSWORD: password },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => resolve({ code, out, err }));
  });
const deletes = async () =>
  ((await (await fetch(`${team.core.sandboxUrl}/__sandbox/requests`)).json()) as { requests: string[] }).requests.filter((r) =>
    r.startsWith('DELETE'),
  );

describe('cli --server', () => {
  it('a compliance officer checkpoints the team log to a file, and verifies against it; a changed file is refused', async () => {
    const file = join(tempDir(), 'checkpoint.json');
    const made = await cli('cleo', ['audit', 'checkpoint', '--output', file]);
    expect(made.err).toBe('');
    expect(made.out).toMatch(
      /^Checkpoint of entry \d+ written to .*checkpoint\.json: keep it somewhere the team's servers cannot write\.\n$/,
    );
    const held = await cli('cleo', ['audit', 'verify', '--checkpoint', file]);
    expect(held.code).toBe(0);
    expect(held.out).toMatch(
      /^The audit log holds: \d+ entries, chain intact\.\nKeyed from entry 1 \(key [0-9a-f]{16}\): every MAC checked\.\nCheckpoint of entry \d+ \(made .*\): it holds — nothing up to it changed since\.\n$/,
    );
    // The file says another hash than it was signed with (someone matching it to a log they replaced).
    const changed = JSON.parse(readFileSync(file, 'utf8')) as { seq: number };
    writeFileSync(file, JSON.stringify({ ...changed, hash: 'f'.repeat(64) }));
    const refused = await cli('cleo', ['audit', 'verify', '--checkpoint', file]);
    expect(refused.code).toBe(6);
    expect(refused.err).toMatch(
      /Checkpoint of entry \d+: it does NOT hold — the checkpoint’s signature does not hold: the file was changed after it was made\./,
    );
    // A viewer may not.
    expect((await cli('vera', ['audit', 'checkpoint'])).err).toMatch(
      /Checkpointing the audit log needs the compliance role; you are a viewer\./,
    );
  });

  it('says who the commands act as, and lists the team’s consents', async () => {
    const who = await cli('vera', ['whoami']);
    expect(who.err).toBe('');
    expect(who.out).toMatch(/^vera \(Vera Viewer\), viewer, on http:\/\/127\.0\.0\.1:\d+/);
    const list = await cli('vera', ['consents', '--status', 'ACTIVE', '--sort', 'created:asc', '--limit', '3', '--json']);
    expect(list.code).toBe(0);
    expect((JSON.parse(list.out) as { consentId: string }[]).map((r) => r.consentId)).toEqual(active.slice(0, 3));
    const count = await cli('vera', ['consents', '--count', '--json']);
    expect(JSON.parse(count.out).total).toBeGreaterThan(0);
  });

  it("refuses a viewer's revoke with the server's reason (exit 5), nothing sent; a support agent's revokes, audited under them", async () => {
    const before = (await deletes()).length;
    const refused = await cli('vera', ['revoke', active[0]!, '--reason', 'scripted']);
    expect(refused.code).toBe(5);
    expect(refused.err).toContain('Revoking needs the support role; you are a viewer.');
    expect((await deletes()).length).toBe(before);

    const done = await cli('sam', ['revoke', active[0]!, '--reason', 'customer asked by phone']);
    expect(done.err).toBe('');
    expect(done.code).toBe(0);
    expect(done.out).toBe(`Consent ${active[0]} revoked.\n`);
    expect((await deletes()).slice(before)).toEqual([`DELETE /consents/${encodeURIComponent(active[0]!)}`]);
    const entry = (await team.core.stores.audit.entries({ target: active[0]! })).find((e) => e.action === 'revoke')!;
    expect(entry.operator).toBe('sam (Sam Support)');
    expect(entry.client).toMatch(/cdr-console-cli/);
  });

  it('a wrong password exits 5 saying so; commands of this machine refuse --server (exit 2); the session ends with the command', async () => {
    const wrong = await cli('sam', ['whoami'], 'not the password');
    expect(wrong.code).toBe(5);
    expect(wrong.err).toContain('The user name or password is wrong.');
    const plain = await new Promise<{ code: number | null; err: string }>((resolve) => {
      const child = spawn(process.execPath, [...CLI, '--server', 'http://console.example.com', '--user', 'sam', 'whoami'], {
        cwd: root,
        env: { ...process.env, CDR_CONSOLE_DATA_DIR: '', CDR_CONSOLE_PASSWORD: 'x' },
      });
      let err = '';
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      child.on('close', (code) => resolve({ code, err }));
    });
    expect(plain.code).toBe(2);
    expect(plain.err).toContain('over https');
    const local = await cli('sam', ['cache', 'check']);
    expect(local.code).toBe(2);
    expect(local.err).toContain('cache check acts on this machine');
    const verify = await cli('vera', ['audit', 'verify']);
    expect(verify.code).toBe(5);
    expect(verify.err).toContain('Verifying the audit log needs the compliance role; you are a viewer.');
    expect((await cli('cleo', ['audit', 'verify'])).out).toMatch(
      /^The audit log holds: \d+ entries, chain intact\.\nKeyed from entry 1 \(key [0-9a-f]{16}\): every MAC checked\.\n$/,
    );
    // Every command signed out after itself: no session of these people is left.
    const sessions = await team.people.list();
    expect(sessions.map((u) => u.sessions)).toEqual([0, 0, 0]);
  });
});

describe('the desktop connecting to a team server', () => {
  it('recognises a team server, and refuses something else that answers', async () => {
    await expect(probeTeamServer(new URL(team.origin))).resolves.toBeUndefined();
    const other = createServer((_req, res) => res.writeHead(401, { 'content-type': 'text/plain' }).end('Not signed in.'));
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    try {
      const port = (other.address() as AddressInfo).port;
      await expect(probeTeamServer(new URL(`http://127.0.0.1:${port}`))).rejects.toThrow('not as a CDR Console team server');
    } finally {
      other.close();
    }
    await expect(probeTeamServer(new URL('http://127.0.0.1:9'))).rejects.toThrow('cannot be reached');
  });

  it('client:connect keeps the address and hands it to the desktop; elsewhere it is refused', async () => {
    const dir = tempDir();
    const opened: string[] = [];
    const handlers = appHandlers({
      stores: team.core.stores,
      log: { info() {}, error() {} },
      about: {
        appVersion: '0',
        host: 'electron',
        profile: { id: 'p', name: 'P', environment: 'sandbox', embedded: true },
        keyStorage: { kind: 'key-file', description: '' },
      },
      sync: {} as never,
      intermediary: { online: true },
      sandboxUrl: undefined,
      connectTeam: (url) => opened.push(url.origin),
      dataDir: dir,
    });
    expect(await handlers['client:connect']({ url: `${team.origin}/#/consents` })).toEqual({ url: team.origin });
    expect(opened).toEqual([team.origin]);
    expect(readTeamClient(dir)?.url).toBe(team.origin);
    const refused = await team.core.router.handle('client:connect', { url: team.origin }, true);
    expect(refused).toMatchObject({ ok: false, error: { code: 'FORBIDDEN', message: expect.stringContaining("the desktop app's") } });
  });
});
