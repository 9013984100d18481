import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../electron/sandbox/server.js';
import { damageSecondHalf } from '../helpers/damage.js';
import { FIXTURES } from '../helpers/fixtures.js';
import { cliProcess } from '../helpers/cli-process.js';
import { tempDir } from '../helpers/temp.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- CLI JSON output is loose */

/** `npm run -s cli -- …` as a script would run it: real processes, real files, exit codes. */
let dataDir: string;
const cli = cliProcess(() => dataDir);

/** `profiles add` with the secret on standard input. */
const addProfile = (name: string, baseUrl: string, tokenUrl: string, clientId: string, secret: string) =>
  cli(
    [
      'profiles',
      'add',
      '--name',
      name,
      '--env',
      'nonprod',
      '--base-url',
      baseUrl,
      '--token-url',
      tokenUrl,
      '--client-id',
      clientId,
      '--client-secret-stdin',
    ],
    secret,
  );

let remote: RunningSandbox;
beforeAll(async () => {
  dataDir = tempDir();
  remote = await startSandbox({ seed: 55, consents: 60 });
  expect((await cli(['sync'])).code).toBe(0);
}, 60_000);
afterAll(() => remote.close());

describe('npm run cli', () => {
  it('sync --data: Data API records per kind, progress per kind on stderr', async () => {
    const r = await cli(['sync', '--data']);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/data transactions: \d+\/\d+ running/);
    expect(r.json().data).toMatchObject({ accounts: expect.any(Number), transactions: expect.any(Number), products: 60 });
  });

  it('sync without --data fetches no Data API records, even for the embedded sandbox (whose Settings default is on)', async () => {
    const r = await cli(['--profile', 'sandbox', 'sync']);
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({ failures: [] });
    expect(r.json().data).toBeUndefined();
    expect(r.err).not.toMatch(/^data[ :]/m);
  }, 60_000);

  it('sync: progress on stderr, a JSON summary on stdout; incremental unless --full', async () => {
    const r = await cli(['sync', '--full']);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/consents: 500\/500 finished/);
    expect(r.json()).toMatchObject({ mode: 'full', consents: { fetched: 500, new: 0, unchanged: 500 }, useCases: 4, failures: [] });
    const again = await cli(['sync']);
    expect(again.json()).toMatchObject({ mode: 'incremental', consents: { new: 0, changed: 0 }, events: { new: 0 }, failures: [] });
  });

  it('consents and consent: a table for people, JSON for scripts', async () => {
    const table = await cli(['consents', '--status', 'EXPIRED', '--limit', '5']);
    expect(table.code).toBe(0);
    expect(table.out.split('\n')[0]).toMatch(/^consentId\s+status\s+consumerEmail/);
    expect(table.out).toMatch(/5 of \d+/);
    const list = (await cli(['consents', '--search', 'westpac', '--json'])).json();
    expect(list.length).toBeGreaterThan(0);
    expect(list.every((r: any) => r.dataHolderName === 'Westpac')).toBe(true);
    const one = (await cli(['consent', list[0].consentId, '--json'])).json();
    expect(one.consent.consentId).toBe(list[0].consentId);
    expect(one.events.length).toBeGreaterThan(0);
    expect((await cli(['consent', 'no-such-id'])).code).toBe(1);
  });

  it('consents --count: the number of matches with the same filters, without the rows', async () => {
    // 500 rows is every cached consent; not --all, which would be audited as an export.
    const every = (await cli(['consents', '--limit', '500', '--json'])).json() as any[];
    expect(every).toHaveLength(500);
    const active = every.filter((r) => r.status === 'ACTIVE' || r.status === 'REVOKED');
    const westpac = (await cli(['consents', '--search', 'westpac', '--limit', '500', '--json'])).json() as any[];
    expect(active.length).toBeGreaterThan(0);
    expect((await cli(['consents', '--count'])).out).toBe(`${every.length}\n`);
    expect((await cli(['consents', '--count', '--status', 'ACTIVE,REVOKED', '--json'])).json()).toEqual({ total: active.length });
    expect((await cli(['consents', '--count', '--search', 'westpac', '--format', 'csv'])).out).toBe(`total\n${westpac.length}\n`);
    // Consents whose webhook deliveries failed: at any time some (not all); before the sandbox's time, none.
    const failed = (await cli(['consents', '--count', '--webhook-failures', 'any', '--json'])).json().total as number;
    expect(failed).toBeGreaterThan(0);
    expect(failed).toBeLessThan(every.length);
    const failedRows = (await cli(['consents', '--webhook-failures', 'any', '--limit', '500', '--json'])).json() as any[];
    expect(failedRows).toHaveLength(failed);
    expect((await cli(['consents', '--count', '--webhook-failures', '..2001-01-01', '--json'])).json()).toEqual({ total: 0 });
    const both = await cli(['consents', '--count', '--all']);
    expect(both.code).toBe(2);
    expect(both.err).toMatch(/--count and --all/);
  });

  it('consents --all: every matching row as CSV or JSON, past the 500-row limit, and audited', async () => {
    const csv = await cli(['consents', '--all', '--format', 'csv']);
    expect(csv.code).toBe(0);
    const lines = csv.out.trimEnd().split('\r\n');
    expect(lines[0]).toMatch(/^"Consent id","Status","Created","Sharing end date",/);
    expect(lines).toHaveLength(501); // the header and all 500 cached consents
    const active = (
      await cli(['consents', '--all', '--format', 'json', '--status', 'ACTIVE,REVOKED', '--sort', 'consumerEmail:asc'])
    ).json();
    expect(active.length).toBeGreaterThan(100);
    expect(active.every((r: any) => r.status === 'ACTIVE' || r.status === 'REVOKED')).toBe(true);
    const emails = active.map((r: any) => r.consumerEmail.toLowerCase());
    expect(emails).toEqual([...emails].sort());
    expect((await cli(['consents', '--all'])).code).toBe(2);
    expect((await cli(['consents', '--sort', 'password'])).code).toBe(2);
    const audit = (await cli(['audit', 'export', '--format', 'json'])).json();
    expect(audit.filter((e: any) => e.action === 'export-consents').map((e: any) => e.result)).toEqual([
      expect.stringMatching(/^500 consents exported as CSV/),
      expect.stringMatching(/consents exported as JSON .*"statuses":\["ACTIVE","REVOKED"\]/),
    ]);
  });

  it('revoke: exit 0, then 3 when already revoked (not sent again, says by whom); both audited, and the chain verifies', async () => {
    const id = (await cli(['consents', '--status', 'ACTIVE', '--limit', '1', '--json'])).json()[0].consentId;
    expect((await cli(['revoke', id, '--reason', 'script: customer request'])).code).toBe(0);
    const again = await cli(['revoke', id, '--reason', 'script: retry']);
    expect(again.code).toBe(3);
    expect(again.out).toMatch(
      new RegExp(`^Consent ${id} was already revoked by .+ at \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z; it was not sent again\\.\\n$`),
    );
    expect((await cli(['revoke', id])).code).toBe(2);
    const verify = await cli(['audit', 'verify']);
    expect(verify.code).toBe(0);
    expect(verify.out).toMatch(/chain intact/);
    const csv = (await cli(['audit', 'export', '--format', 'csv'])).out.split('\r\n');
    expect(csv[0]).toBe('seq,at,operator,action,target,reason,result,prevHash,hash');
    expect(csv.some((l) => l.includes('script: customer request'))).toBe(true);
  });

  it('bulk-revoke: item by item from a file, with counts', async () => {
    const ids = (await cli(['consents', '--status', 'ACTIVE', '--limit', '3', '--json'])).json().map((r: any) => r.consentId);
    const file = join(tempDir(), 'ids.txt');
    writeFileSync(file, `# incident 9\n${ids.join('\n')}\n`);
    const r = await cli(['bulk-revoke', '--file', file, '--reason', 'incident 9', '--per-second', '50']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual({ revoked: 3 });
    expect(r.err.split('\n').filter((l) => / revoked$/.test(l))).toHaveLength(3);
  });

  it('events: filtered by type, newest first', async () => {
    const rows = (await cli(['events', '--type', 'WEBHOOK_SENDING_FAILED_CLIENT_ERROR', '--json'])).json();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((e: any) => e.eventType === 'WEBHOOK_SENDING_FAILED_CLIENT_ERROR' && e.eventDetail)).toBe(true);
    expect(rows.map((e: any) => e.timestamp)).toEqual(
      rows
        .map((e: any) => e.timestamp)
        .sort()
        .reverse(),
    );
  });

  it('profiles: add with the secret on stdin (kept out of profiles.json), list, test — exit 5 for wrong credentials, 4 offline', async () => {
    const add = await addProfile('Partner nonprod', remote.url, `${remote.url}/oauth2/token`, 'sandbox-client', 'sandbox-secret\n');
    expect(add.code).toBe(0);
    const profiles = (await cli(['profiles', 'list', '--json'])).json();
    expect(profiles.map((p: any) => p.id)).toEqual(['sandbox', 'partner-nonprod']);
    expect(JSON.stringify(profiles)).not.toContain('sandbox-secret');
    const ok = await cli(['--profile', 'partner-nonprod', 'profiles', 'test']);
    expect(ok.code).toBe(0);
    expect(ok.out).toMatch(/✓ token: .*\n✓ consent-list: GET \/consents\/v2 answered: 60 consents/);

    await addProfile('Wrong secret', remote.url, `${remote.url}/oauth2/token`, 'sandbox-client', 'not-the-secret');
    const wrong = await cli(['--profile', 'wrong-secret', 'profiles', 'test']);
    expect(wrong.code).toBe(5);
    expect(wrong.out).toMatch(/✗ token: The token endpoint refused the client credentials \(invalid_client\)/);

    // A port that was free a moment ago: nothing listens there (port 9 would be refused by fetch as a blocked port).
    const closed = await startSandbox();
    await closed.close();
    await addProfile('Nowhere', closed.url, `${closed.url}/oauth2/token`, 'x', 'y');
    const offline = await cli(['--profile', 'nowhere', 'profiles', 'test']);
    expect(offline.code).toBe(4);
    expect(offline.out).toMatch(/connection refused/);
    expect((await cli(['--profile', 'nowhere', 'revoke', 'anything', '--reason', 'offline test'])).code).toBe(4);
  });

  it('normalize: the normaliser through the same command line', async () => {
    const r = await cli(['normalize', join(FIXTURES, 'products-synthetic', 'mock-data-holder-java_product2.json')]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).data.fees[0].feeMethodUType).toBe('fixedAmount');
  });

  it('explains itself, exits 2 on bad usage', async () => {
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/Exit codes:[\s\S]*3 {2}revoke: the consent was already inactive/);
    expect((await cli(['frobnicate'])).code).toBe(2);
    expect((await cli(['consents', '--limit', 'lots'])).code).toBe(2);
  });

  it('cache check: the full check on demand; exit 1 with the recovery path when a page is damaged', async () => {
    const shared = dataDir;
    dataDir = tempDir();
    try {
      expect((await cli(['cache', 'check'])).out).toMatch(/no cache yet/);
      expect((await cli(['sync'])).code).toBe(0);
      const intact = await cli(['cache', 'check']);
      expect(intact).toMatchObject({ code: 0, out: expect.stringMatching(/is intact/) });
      damageSecondHalf(join(dataDir, 'profiles', 'sandbox', 'cache.sqlite'));
      const damaged = await cli(['cache', 'check']);
      expect(damaged.code).toBe(1);
      expect(damaged.err).toMatch(/is damaged .*Move it aside .*cache reset.* sync again/);
      expect((await cli(['cache', 'reset'])).code).toBe(0);
      expect((await cli(['cache', 'check'])).out).toMatch(/no cache yet/);
    } finally {
      dataDir = shared;
    }
  }, 60_000);
});
