import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCore, type Core } from '../../electron/core/console-core.js';
import { ipcClient } from '../helpers/ipc.js';
import { tempDir } from '../helpers/temp.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- envelopes are loose JSON */

/**
 * The data browser's channels against the embedded sandbox over real HTTP and a real cache: a data
 * sync of one consent as a job, its records a window at a time, transactions searched and filtered
 * with a running balance, stale records marked, a purged consent's retention record instead of an
 * empty list, exports audited; the product catalogue with a legacy (1.x) data holder, and a
 * product's versions across a repricing between two syncs.
 */
let core: Core;
beforeAll(async () => {
  core = await startCore({
    dataDir: tempDir(),
    host: 'browser',
    appVersion: 'test',
    log: { info() {}, error() {} },
    sandbox: { seed: 61, consents: 120, legacyHolders: 1 },
  });
  await core.sync();
});
afterAll(() => core.close());

const { ok, raw } = ipcClient(() => core);
const finished = async (jobId: string) => {
  await expect
    .poll(async () => (await ok('jobs:list', {})).find((j: any) => j.jobId === jobId)?.state, { timeout: 30_000 })
    .toMatch(/finished|failed/);
  return (await ok('jobs:list', {})).find((j: any) => j.jobId === jobId);
};

/** An ACTIVE banking consent with transactions, found through the sandbox's own answers. */
async function bankingConsent(postUsageAction?: string): Promise<string> {
  const { rows } = await ok('consents:list', {
    filter: { statuses: ['ACTIVE'], ...(postUsageAction ? { postUsageActions: [postUsageAction] } : {}) },
    sort: { field: 'created', direction: 'asc' },
    offset: 0,
    limit: 100,
  });
  for (const c of rows) {
    const detail = await ok('consents:get', { consentId: c.consentId });
    if (
      detail.consent.useCase?.scopes?.some((s: any) => s.id === 'bank:transactions:read') &&
      !/energy|power/i.test(c.dataHolderName ?? '')
    )
      return c.consentId;
  }
  throw new Error('no ACTIVE banking consent');
}

describe('the data browser', () => {
  let consentId: string;

  it('syncs one consent’s data as a job with progress, then says when and what it fetched', async () => {
    consentId = await bankingConsent();
    const { jobId } = await ok('data:sync', { consentIds: [consentId] });
    const job = await finished(jobId);
    expect(job.state).toBe('finished');
    expect(job.kind).toBe('data-sync');
    expect(job.counts.transactions).toBeGreaterThan(0);
    const meta = await ok('data:meta', { consentId });
    expect(meta.consent.status).toBe('ACTIVE');
    expect(meta.lastFetchedAt).toMatch(/^\d{4}-/);
    const tx = meta.kinds.find((k: any) => k.kind === 'transactions');
    expect(tx).toMatchObject({ count: job.counts.transactions, fetchedAt: meta.lastFetchedAt, stale: 0 });
    expect(meta.accounts.length).toBe(job.counts.accounts);
    expect(meta.retention).toEqual([]);
  }, 60_000);

  it('reads transactions a window at a time, newest first, with a running balance that adds up', async () => {
    const all = await ok('data:records', { consentId, kind: 'transactions', offset: 0, limit: 200 });
    expect(all.total).toBe(all.rows.length);
    const first = await ok('data:records', { consentId, kind: 'transactions', offset: 0, limit: 3 });
    expect(first.rows.map((r: any) => r.recordId)).toEqual(all.rows.slice(0, 3).map((r: any) => r.recordId));
    expect(first.total).toBe(all.total);
    const balances = await ok('data:records', { consentId, kind: 'balances', offset: 0, limit: 10 });
    for (const b of balances.rows) {
      const posted = all.rows.filter((r: any) => r.record.accountId === b.record.accountId && r.record.status === 'POSTED');
      if (!posted.length) continue;
      // The newest posted transaction leaves the current balance; each older one, that less the newer amounts.
      expect(posted[0].runningBalance).toBe(Number(b.record.currentBalance).toFixed(2));
      for (let i = 1; i < posted.length; i++)
        expect(Number(posted[i].runningBalance)).toBeCloseTo(Number(posted[i - 1].runningBalance) - Number(posted[i - 1].record.amount), 2);
    }
    for (const pending of all.rows.filter((r: any) => r.record.status === 'PENDING')) expect(pending.runningBalance).toBeNull();
  });

  it('finds transactions by words of their description (prefixes too) and filters by account, type, status, amount and days', async () => {
    const all = (await ok('data:records', { consentId, kind: 'transactions', offset: 0, limit: 200 })).rows;
    const word = String(all.find((r: any) => r.record.description !== 'Salary ACME PTY LTD').record.description).split(' ')[0]!;
    const expected = all.filter((r: any) =>
      String(r.record.description)
        .toLowerCase()
        .split(/\s+/)
        .some((w: string) => w.startsWith(word.toLowerCase().slice(0, 4))),
    );
    const found = await ok('data:records', {
      consentId,
      kind: 'transactions',
      filter: { search: word.slice(0, 4).toLowerCase() },
      offset: 0,
      limit: 200,
    });
    expect(found.total).toBe(expected.length);
    expect(found.rows.every((r: any) => String(r.record.description).toUpperCase().includes(word.slice(0, 4).toUpperCase()))).toBe(true);
    expect((await ok('data:records', { consentId, kind: 'transactions', filter: { search: 'zzqqxx' }, offset: 0, limit: 10 })).total).toBe(
      0,
    );

    const account = all[0].record.accountId;
    const filter = { accountIds: [account], statuses: ['POSTED'], types: ['PAYMENT', 'DIRECT_DEBIT'], minAmount: '-100', maxAmount: '-5' };
    const filtered = await ok('data:records', { consentId, kind: 'transactions', filter, offset: 0, limit: 200 });
    const want = all.filter(
      (r: any) =>
        r.record.accountId === account &&
        r.record.status === 'POSTED' &&
        ['PAYMENT', 'DIRECT_DEBIT'].includes(r.record.type) &&
        Number(r.record.amount) >= -100 &&
        Number(r.record.amount) <= -5,
    );
    expect(filtered.rows.map((r: any) => r.recordId)).toEqual(want.map((r: any) => r.recordId));
    const day = String(all[Math.floor(all.length / 2)].record.postingDateTime ?? all[0].record.executionDateTime).slice(0, 10);
    const onDay = await ok('data:records', {
      consentId,
      kind: 'transactions',
      filter: { fromDay: day, toDay: day },
      offset: 0,
      limit: 200,
    });
    expect(onDay.total).toBeGreaterThan(0);
    expect(onDay.rows.every((r: any) => String(r.record.postingDateTime ?? r.record.executionDateTime).startsWith(day))).toBe(true);
    // Bad input is refused, saying what is wrong.
    const bad = await raw('data:records', { consentId, kind: 'transactions', filter: { minAmount: 'ten' }, offset: 0, limit: 10 });
    expect(bad.ok).toBe(false);
    expect(bad.error.message).toMatch(/amount such as 12.50/);
  });

  it('marks records the consent’s last sync did not return as stale', async () => {
    const ghost = {
      accountId: 'gone-account',
      transactionId: 'ghost-1',
      status: 'POSTED',
      type: 'PAYMENT',
      description: 'GHOST TRANSACTION',
      executionDateTime: '2020-01-01T00:00:00.000Z',
      amount: '-1.00',
      adatree: { consentId },
    };
    core.cache.data.upsertPage('transactions', [ghost], '2020-01-02T00:00:00.000Z');
    const found = await ok('data:records', { consentId, kind: 'transactions', filter: { search: 'ghost' }, offset: 0, limit: 10 });
    expect(found.rows).toHaveLength(1);
    expect(found.rows[0]).toMatchObject({ stale: true, fetchedAt: '2020-01-02T00:00:00.000Z' });
    const fresh = await ok('data:records', { consentId, kind: 'transactions', filter: { search: 'salary' }, offset: 0, limit: 10 });
    expect(fresh.rows.every((r: any) => !r.stale)).toBe(true);
    expect((await ok('data:meta', { consentId })).kinds.find((k: any) => k.kind === 'transactions').stale).toBe(1);
  });

  it('exports a filtered view to CSV and JSON, audited with its size and hash', async () => {
    const filter = { search: 'salary' };
    const expected = (await ok('data:records', { consentId, kind: 'transactions', filter, offset: 0, limit: 200 })).total;
    const csvJob = await finished((await ok('data:export', { consentId, kind: 'transactions', filter, format: 'csv' })).jobId);
    const csv = readFileSync(csvJob.result.path, 'utf8').trim().split('\n');
    expect(csv[0]).toMatch(/^"recordId","fetchedAt \(UTC\)","stale","accountId"/);
    expect(csv).toHaveLength(expected + 1);
    const jsonJob = await finished((await ok('data:export', { consentId, kind: 'transactions', filter, format: 'json' })).jobId);
    const json = JSON.parse(readFileSync(jsonJob.result.path, 'utf8'));
    expect(json.rows).toHaveLength(expected);
    expect(json.rows[0]).toHaveProperty('raw');
    expect(json.filter).toEqual(filter);
    const audit = await ok('audit:list', { target: consentId, limit: 10 });
    expect(audit.filter((a: any) => a.action === 'export-data')).toHaveLength(2);
    expect(audit.at(-1).result).toMatch(new RegExp(`^${expected} transactions records exported as JSON .*sha256 ${jsonJob.result.sha256}`));
  });

  it('lists consents with data, by consumer and by data holder', async () => {
    const consents = await ok('data:consents', { offset: 0, limit: 50 });
    expect(consents.rows.map((c: any) => c.consentId)).toContain(consentId);
    const mine = consents.rows.find((c: any) => c.consentId === consentId);
    expect(mine.records).toBeGreaterThan(0);
    const holders = await ok('data:groups', { by: 'holder' });
    const holder = holders.groups.find((g: any) => g.id === mine.dataHolderBrandId);
    expect(holder.records).toBeGreaterThanOrEqual(mine.records);
    const ofHolder = await ok('data:consents', { dataHolderBrandId: mine.dataHolderBrandId, offset: 0, limit: 50 });
    expect(ofHolder.rows.every((c: any) => c.dataHolderBrandId === mine.dataHolderBrandId)).toBe(true);
    const consumers = await ok('data:groups', { by: 'consumer', search: mine.consumerEmail });
    expect(consumers.groups.map((g: any) => g.label)).toContain(mine.consumerEmail);
  });

  it('says when and why a consent’s data was deleted, instead of an empty list', async () => {
    const id = await bankingConsent('DELETION');
    await finished((await ok('data:sync', { consentIds: [id] })).jobId);
    expect((await ok('data:records', { consentId: id, kind: 'accounts', offset: 0, limit: 10 })).total).toBeGreaterThan(0);
    await ok('consents:revoke', { consentId: id, reason: 'data browser test' });
    await core.sync();
    const meta = await ok('data:meta', { consentId: id });
    expect(meta.kinds).toEqual([]);
    expect(meta.retention).toEqual([
      expect.objectContaining({
        action: 'deleted',
        reason: 'consent revoked; post-usage action DELETION',
        at: expect.stringMatching(/^\d{4}-/),
      }),
    ]);
    const listed = await ok('data:consents', { search: id, offset: 0, limit: 5 });
    expect(listed.rows[0]).toMatchObject({ consentId: id, records: 0, retention: expect.stringMatching(/^deleted /) });
  }, 60_000);
});

const SHAPES_SEEN = new Set(['cds-1.34+', 'data-api-2.0.0']);
describe('de-identification', () => {
  it('says when and why a consent’s data was de-identified; the de-identified records no longer belong to it', async () => {
    const id = await bankingConsent('DE_IDENTIFICATION');
    await finished((await ok('data:sync', { consentIds: [id] })).jobId);
    const before = (await ok('data:meta', { consentId: id })).kinds.reduce((a: number, k: any) => a + k.count, 0);
    expect(before).toBeGreaterThan(0);
    await ok('consents:revoke', { consentId: id, reason: 'data browser test' });
    await core.sync();
    const meta = await ok('data:meta', { consentId: id });
    expect(meta.kinds).toEqual([]);
    expect(meta.retention).toEqual([
      expect.objectContaining({ action: 'de-identified', records: before, reason: 'consent revoked; post-usage action DE_IDENTIFICATION' }),
    ]);
    expect((await ok('data:records', { consentId: id, kind: 'transactions', offset: 0, limit: 10 })).total).toBe(0);
  }, 60_000);
});

describe('products', () => {
  it('lists the catalogue with counts per category, filters by data holder and name; a legacy holder’s products normalised with notes', async () => {
    const { jobId } = await ok('data:sync', { allActive: true });
    expect((await finished(jobId)).state).toBe('finished');
    const all = await ok('products:list', { filter: {}, offset: 0, limit: 500 });
    expect(all.total).toBe(60);
    expect(all.categories.reduce((a: number, c: any) => a + c.count, 0)).toBe(60);
    const loans = await ok('products:list', { filter: { categories: ['PERS_LOANS'] }, offset: 0, limit: 500 });
    expect(loans.total).toBe(all.categories.find((c: any) => c.category === 'PERS_LOANS').count);
    // Counts per category stay those of the other filters, so every chip says what it would show.
    expect(loans.categories).toEqual(all.categories);
    const holder = all.dataHolders[0];
    const ofHolder = await ok('products:list', { filter: { dataHolderBrandIds: [holder.id] }, offset: 0, limit: 500 });
    expect(ofHolder.total).toBe(holder.count);
    const named = await ok('products:list', { filter: { search: 'everyday' }, offset: 0, limit: 500 });
    expect(named.total).toBe(all.dataHolders.length);
    const legacy = all.rows.filter((p: any) => p.shape === 'cds-legacy');
    expect(legacy.length).toBe(6); // the first data holder serves 1.x
    expect(new Set(all.rows.filter((p: any) => p.shape !== 'cds-legacy').map((p: any) => p.shape))).toEqual(SHAPES_SEEN);
    const detail = await ok('products:get', { recordId: legacy.find((p: any) => p.name === 'Everyday Account').recordId });
    expect(detail.notes.length).toBeGreaterThan(0);
    expect(detail.record.fees[0].feeMethodUType).toBeDefined();
    expect(detail.raw.fees[0].feeMethodUType).toBeUndefined();
    expect((await raw('products:get', { recordId: 'nope' })).error).toMatchObject({ code: 'NOT_FOUND' });
  }, 60_000);

  it('keeps each version of a product and shows what changed between two syncs', async () => {
    const all = await ok('products:list', { filter: { search: 'everyday' }, offset: 0, limit: 500 });
    const product = all.rows.find((p: any) => p.shape !== 'cds-legacy');
    const before = await ok('products:get', { recordId: product.recordId });
    expect(before.versions).toHaveLength(1);
    const res = await fetch(`${core.sandboxUrl}/__sandbox/products/${encodeURIComponent(product.productId)}/fee`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Monthly account fee', amount: '9.50' }),
    });
    expect(res.status).toBe(200);
    await finished((await ok('data:sync', { allActive: true })).jobId);
    const after = await ok('products:get', { recordId: product.recordId });
    expect(after.versions).toHaveLength(2);
    const [v1, v2] = await ok('products:versions', { recordId: product.recordId, hashes: after.versions.map((v: any) => v.hash) });
    const fee = (v: any) => v.record.fees.find((f: any) => f.name === 'Monthly account fee').fixedAmount.amount;
    expect(fee(v1)).not.toBe('9.50');
    expect(fee(v2)).toBe('9.50');
    // A third sync with nothing changed keeps two versions.
    await finished((await ok('data:sync', { allActive: true })).jobId);
    expect((await ok('products:get', { recordId: product.recordId })).versions).toHaveLength(2);
  }, 90_000);
});
