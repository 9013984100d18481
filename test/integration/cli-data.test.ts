import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../electron/sandbox/server.js';
import { cliProcess } from '../helpers/cli-process.js';
import { tempDir, tokenFor } from '../helpers/temp.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- CLI JSON output is loose */

/**
 * `cli data KIND` and `cli data sync` against an intermediary in this process: what the cache holds
 * for a consent or a consumer equals what the intermediary holds within what the consent allows.
 */
let dataDir: string;
let remote: RunningSandbox;
let token: string;
const cli = cliProcess(() => dataDir);

/** How many transactions the intermediary holds for a filter, asking for every one the consent allows. */
async function held(query: string): Promise<number> {
  const res = await fetch(`${remote.url}/data/banking/transactions?${query}&oldestTime=2000-01-01T00:00:00Z&pageSize=1`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return ((await res.json()) as any).meta.totalRecords;
}

/** The Consent API's scopes and every Data API scope (a profile asks for the Consent API's by default). */
const SCOPES = [
  'consents:read consents:write use-cases:read data-holders:read tokens:write',
  'data:banking:accounts:read data:banking:transactions:read data:banking:payees:read data:banking:regular_payments:read',
  'data:common:customers:read data:energy:plans:read data:energy:accounts:read data:energy:invoices:read data:energy:billing:read',
  'data:energy:electricity.servicepoints:read data:energy:electricity.usage:read',
].join(' ');

beforeAll(async () => {
  dataDir = tempDir();
  remote = await startSandbox({ seed: 71, consents: 60 });
  token = await tokenFor(remote.url);
  const add = await cli(
    [
      'profiles',
      'add',
      '--name',
      'Partner',
      '--env',
      'nonprod',
      '--base-url',
      remote.url,
      '--token-url',
      `${remote.url}/oauth2/token`,
      '--client-id',
      'sandbox-client',
      '--client-secret-stdin',
      '--scopes',
      SCOPES,
    ],
    'sandbox-secret\n',
  );
  expect(add.code, add.err).toBe(0);
  const sync = await cli(['--profile', 'partner', 'sync', '--data']);
  expect(sync.code, sync.err).toBe(0);
}, 120_000);
afterAll(() => remote.close());

describe('cli data', () => {
  let account: any;

  it('transactions --consent ID --count: what the intermediary holds for the consent', async () => {
    const accounts = (await cli(['--profile', 'partner', 'data', 'accounts', '--json'])).json();
    expect(accounts.length).toBeGreaterThan(0);
    for (const a of accounts)
      if ((await held(`consentIds=${a.adatree.consentId}`)) > 0) {
        account = a;
        break;
      }
    const consentId = account.adatree.consentId;
    const count = await cli(['--profile', 'partner', 'data', 'transactions', '--consent', consentId, '--count']);
    expect(count.code).toBe(0);
    expect(Number(count.out.trim())).toBe(await held(`consentIds=${consentId}`));
    expect((await cli(['--profile', 'partner', 'data', 'transactions', '--consent', consentId, '--count', '--json'])).json()).toEqual({
      total: await held(`consentIds=${consentId}`),
    });
  }, 60_000);

  it('--consumer, --json (a streamed array) and --format csv hold every record', async () => {
    const consumerId = account.adatree.consumerId;
    const list = (await cli(['--profile', 'partner', 'data', 'transactions', '--consumer', consumerId, '--json'])).json();
    expect(list.length).toBe(await held(`consumerIds=${consumerId}`));
    expect(list.every((t: any) => t.adatree.consumerId === consumerId)).toBe(true);
    const csv = await cli(['--profile', 'partner', 'data', 'transactions', '--consumer', consumerId, '--format', 'csv']);
    const lines = csv.out.trim().split('\r\n');
    expect(lines[0]).toMatch(/^"recordId","consentId","accountId"/);
    expect(lines.length).toBe(list.length + 1);
    const table = await cli(['--profile', 'partner', 'data', 'payees', '--limit', '3']);
    expect(table.code).toBe(0);
    expect(table.out).toMatch(/^consentId\s+payeeId/);
    expect(table.out).toMatch(/3 of \d+/);
  }, 60_000);

  it('data sync: only what is new (nothing here); --full reads every record again', async () => {
    const again = await cli(['--profile', 'partner', 'data', 'sync']);
    expect(again.code, again.err).toBe(0);
    expect(again.json()).toMatchObject({ state: 'finished', records: { transactions: 0 } });
    const full = await cli(['--profile', 'partner', 'data', 'sync', '--full']);
    expect(full.json().records.transactions).toBe(await held(''));
  }, 120_000);

  it('refuses a kind it does not know and a bad consent id with exit 2', async () => {
    const kind = await cli(['data', 'ledgers']);
    expect(kind.code).toBe(2);
    expect(kind.err).toMatch(/unknown kind "ledgers": one of accounts, balances, transactions/);
    expect((await cli(['data', 'transactions', '--consent', 'a b'])).code).toBe(2);
  });
});
