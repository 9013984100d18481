import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCore, type Core } from '../../electron/core/console-core.js';
import { ipcClient } from '../helpers/ipc.js';
import { tempDir } from '../helpers/temp.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- envelopes are loose JSON */

let core: Core;
let dataDir: string;
beforeAll(async () => {
  dataDir = tempDir();
  core = await startCore({
    dataDir,
    host: 'browser',
    appVersion: 'test',
    log: { info() {}, error() {} },
    sandbox: { seed: 61, consents: 120 },
  });
});
afterAll(() => core.close());

const { ok } = ipcClient(() => core);
const dataOf = (consentId: string, kind = 'accounts') => ok('data:list', { kind, consentId, page: 1, pageSize: 500 });

describe('Data API sync', () => {
  it('stores every kind the consents allow, accounts and products normalised to 2.0.0 with their notes', async () => {
    const summary = await ok('sync:start', { data: true });
    expect(summary.failures).toEqual([]);
    for (const kind of ['accounts', 'balances', 'transactions', 'payees', 'customers', 'energyAccounts', 'invoices', 'usage'])
      expect(summary.data[kind]).toBeGreaterThan(0);
    expect(summary.data.products).toBe(60);
    const accounts = await ok('data:list', { kind: 'accounts', page: 1, pageSize: 500 });
    expect(accounts.total).toBe(summary.data.accounts);
    const withFees = accounts.rows.find((r: any) => r.record.fees?.length);
    expect(withFees.shape).toBe('data-api-2.0.0');
    expect(withFees.record.fees[0].feeMethodUType).toBeDefined();
    // A second sync reads only what the intermediary retrieved since (nothing: its clock stands);
    // a full one reads every transaction again and converges: the same records, not twice as many.
    const again = await ok('sync:start', { data: true });
    expect(again.data.transactions).toBe(0);
    const full = await ok('sync:start', { data: true, full: true });
    expect(full.data.transactions).toBe(summary.data.transactions);
    expect((await ok('data:list', { kind: 'transactions', page: 1, pageSize: 1 })).total).toBe(summary.data.transactions);
  }, 60_000);

  it('keeps CDR data encrypted at rest: no e-mail, account number or merchant in the cache file', async () => {
    const file = join(dataDir, 'profiles', 'sandbox', 'cache.sqlite');
    const accounts = await ok('data:list', { kind: 'accounts', page: 1, pageSize: 500 });
    const number = accounts.rows.find((r: any) => r.record.accountNumber)?.record.accountNumber as string;
    for (const f of [file, `${file}-wal`].filter(existsSync)) {
      const bytes = readFileSync(f);
      for (const secret of ['@example.com', number, 'WOOLWORTHS']) expect(bytes.includes(Buffer.from(secret))).toBe(false);
    }
  });
});

describe('retention when a consent ends', () => {
  async function activeWithData(postUsageAction: string) {
    const accounts = await ok('data:list', { kind: 'accounts', page: 1, pageSize: 500 });
    for (const row of accounts.rows) {
      const detail = await ok('consents:get', { consentId: row.consentId });
      if (detail.consent.status === 'ACTIVE' && detail.consent.postUsageAction === postUsageAction) return row.consentId as string;
    }
    throw new Error(`no ACTIVE ${postUsageAction} consent with data`);
  }

  it('DELETION: the CDR data is purged at the next sync; a record of the deletion is kept and audited', async () => {
    const id = await activeWithData('DELETION');
    expect((await dataOf(id)).total).toBeGreaterThan(0);
    await ok('consents:revoke', { consentId: id, reason: 'retention test' });
    // Every console hears of what retention changed (change-notices.ts): the data and the audit log.
    const notices: unknown[] = [];
    const unsubscribe = core.events.subscribe((event, payload) => {
      if (event === 'cache:changed') notices.push(payload);
    });
    const summary = await ok('sync:start', {});
    unsubscribe();
    expect(summary.retention).toContainEqual({ consentId: id, action: 'deleted', records: expect.any(Number) });
    expect(notices).toContainEqual({ entity: 'data', count: summary.retention.length });
    expect(notices).toContainEqual({ entity: 'audit', count: summary.retention.length });
    for (const kind of ['accounts', 'transactions', 'balances']) expect((await dataOf(id, kind)).total).toBe(0);
    const audit = await ok('audit:list', { target: id, limit: 50 });
    expect(audit.at(-1)).toMatchObject({
      operator: 'retention (automatic)',
      action: 'retention:deleted',
      reason: expect.stringMatching(/revoked; post-usage action DELETION/),
    });
    expect(await core.stores.data.retentionLog(id)).toEqual([
      {
        consentId: id,
        action: 'deleted',
        records: expect.any(Number),
        kinds: expect.stringContaining('accounts'),
        reason: 'consent revoked; post-usage action DELETION',
        at: expect.any(String),
      },
    ]);
    // A later sync has nothing more to do for it.
    expect((await ok('sync:start', {})).retention.map((r: any) => r.consentId)).not.toContain(id);
  }, 60_000);

  it('DE_IDENTIFICATION: the records stay for analysis, without anything that identifies the consumer or the account', async () => {
    const id = await activeWithData('DE_IDENTIFICATION');
    const before = (await dataOf(id, 'transactions')).total;
    expect(before).toBeGreaterThan(0);
    await ok('consents:revoke', { consentId: id, reason: 'retention test' });
    const summary = await ok('sync:start', {});
    expect(summary.retention).toContainEqual({ consentId: id, action: 'de-identified', records: expect.any(Number) });
    expect((await dataOf(id, 'transactions')).total).toBe(0);
    const anonymous: any[] = [];
    for (let page = 1; ; page++) {
      const p = await ok('data:list', { kind: 'transactions', page, pageSize: 500 });
      anonymous.push(...p.rows.filter((r: any) => r.deidentified));
      if (page * 500 >= p.total) break;
    }
    expect(anonymous.length).toBe(before);
    expect((await core.stores.data.retentionLog(id))[0]).toMatchObject({ action: 'de-identified', records: expect.any(Number) });
    for (const r of anonymous) {
      expect(r.consentId).toBeNull();
      expect(r.recordId).toMatch(/^deidentified:/);
      for (const field of ['accountId', 'transactionId', 'description', 'merchantName', 'reference', 'adatree'])
        expect(r.record).not.toHaveProperty(field);
      expect(r.record).toHaveProperty('amount');
      expect(r.record).toHaveProperty('executionDateTime');
    }
  }, 60_000);
});
