import { describe, expect, it } from 'vitest';
import { createConsentGenerator } from '../../electron/sandbox/consents.js';
import { useCases } from '../../electron/sandbox/reference-data.js';
import { consentApi, dataApi, parseTolerant } from '../../shared/schemas/index.js';
import { fixtureFiles, loadFixture } from '../helpers/fixtures.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- payloads are loose JSON */

const pair = <K extends keyof typeof consentApi.tolerant>(k: K) => ({ tolerant: consentApi.tolerant[k], strict: consentApi.strict[k] });
const dataPair = <K extends keyof typeof dataApi.tolerant>(k: K) => ({ tolerant: dataApi.tolerant[k], strict: dataApi.strict[k] });
const consent = createConsentGenerator(1, 10).at(3) as any;
const adatree = { consentId: 'c', consumerId: 'u', cdrArrangementId: 'a', dataHolderBrandId: 'd', useCaseId: 'uc' };

describe('Consent API schemas', () => {
  it('accept the sandbox consent, keep unknown fields, and flag nothing', () => {
    const r = parseTolerant(pair('Consent'), { ...consent, metadata: { employerName: 'Adatree' }, brandNewField: [1, 2] });
    expect(r).toMatchObject({ ok: true, unknownValues: [] });
    if (r.ok) expect((r.data as any).brandNewField).toEqual([1, 2]);
  });

  it('keep an unknown enum value as sent and flag it with its path and the known values', () => {
    const r = parseTolerant(pair('ConsentsListV2'), {
      consents: [consent, { ...consent, status: 'PAUSED', useCase: { ...consent.useCase, accessFrequency: 'WEEKLY' } }],
      links: { self: 'x' },
      meta: { totalPages: 1, totalRecords: 2 },
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.data.consents[1]!.status).toBe('PAUSED');
    expect(r.unknownValues).toEqual([
      { path: 'consents[1].status', value: 'PAUSED', known: ['REQUESTED', 'ACTIVE', 'REVOKED', 'EXPIRED'] },
      { path: 'consents[1].useCase.accessFrequency', value: 'WEEKLY', known: ['ONCE_OFF', 'ONGOING'] },
    ]);
  });

  it.each([
    ['a missing identifier', { ...consent, consentId: undefined }, 'consentId'],
    ['a timestamp that is not ISO 8601', { ...consent, created: '22/11/2026' }, 'created'],
    ['a string version', { ...consent, version: '2' }, 'version'],
  ])('report %s with its path', (_name, input, path) => {
    const r = parseTolerant(pair('Consent'), input);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.path).toBe(path);
  });

  it('read events, with nullable eventDetail and flagged unknown types', () => {
    const event = {
      eventId: 'e1',
      eventType: 'WEBHOOK_SENDING_FAILED_CLIENT_ERROR',
      eventDetail: '400 Bad Request: unknown consent',
      timestamp: '2026-11-01T00:00:00.000Z',
      consentId: 'c',
      cdrArrangementId: 'a',
      consumerId: 'u',
    };
    const r = parseTolerant(pair('ConsentEventList'), {
      data: { events: [event, { ...event, eventDetail: null, eventType: 'SMS_SENT' }] },
      links: {},
      meta: { totalPages: 1, totalRecords: 2 },
    });
    expect(r).toMatchObject({ ok: true, unknownValues: [{ path: 'data.events[1].eventType', value: 'SMS_SENT' }] });
    expect(parseTolerant(pair('ConsentEvent'), { ...event, timestamp: undefined })).toMatchObject({
      ok: false,
      error: { path: 'timestamp' },
    });
  });

  it('read use cases with features, active, anonymisationDetails, and flag an unknown sharing duration', () => {
    const uc = {
      ...useCases(1)[0],
      features: ['DE_IDENTIFICATION'],
      active: true,
      anonymisationDetails: 'Combined with others in your area',
      sharingDurations: ['ONE_YEAR', 'FOREVER'],
    };
    expect(parseTolerant(pair('UseCaseArray'), [uc])).toMatchObject({
      ok: true,
      unknownValues: [{ path: '[0].sharingDurations[1]', value: 'FOREVER' }],
    });
  });

  it('read authorization responses with their deprecated success flag, and error lists', () => {
    expect(
      parseTolerant(pair('ConsentAuthorization'), {
        uri: 'https://dh.example/authorize',
        expiry: '2026-11-01T00:10:00.000Z',
        success: true,
      }),
    ).toMatchObject({ ok: true });
    expect(parseTolerant(pair('ConsentActivatedResponse'), { success: true, activeConsentId: 'c', state: 's' })).toMatchObject({
      ok: true,
    });
    expect(parseTolerant(pair('ErrorList'), { errors: [{ code: '0001', title: 'status', detail: 'invalid status' }] })).toMatchObject({
      ok: true,
    });
    expect(parseTolerant(pair('ErrorList'), { errors: [] })).toMatchObject({ ok: false, error: { path: 'errors' } });
  });
});

describe('Data API schemas', () => {
  it('read every real product detail fixture as a product record, in its old shape', () => {
    for (const f of fixtureFiles('products-real')) {
      const payload = loadFixture('products-real', f) as any;
      for (const p of payload.data.products ?? [payload.data]) {
        const r = parseTolerant(dataPair('BankingProductDetail'), p);
        expect(r.ok, `${f}: ${JSON.stringify(!r.ok && r.error)}`).toBe(true);
      }
    }
  });

  it('read a transaction list and flag an unknown transaction type at its path', () => {
    const tx = {
      accountId: 'a',
      isDetailAvailable: false,
      type: 'PAYMENT',
      status: 'POSTED',
      description: 'Coffee',
      amount: '-4.50',
      reference: '',
      postingDateTime: '2026-10-01T09:00:00Z',
      adatree: { ...adatree, resourceId: 'r1' },
    };
    const r = parseTolerant(dataPair('BankingTransactionList'), {
      data: { transactions: [tx, { ...tx, type: 'CRYPTO' }] },
      links: { self: 'x' },
      meta: { totalPages: 1, totalRecords: 2 },
    });
    expect(r).toMatchObject({ ok: true, unknownValues: [{ path: 'data.transactions[1].type', value: 'CRYPTO' }] });
    const missing = parseTolerant(dataPair('BankingTransactionList'), {
      data: { transactions: [{ ...tx, amount: undefined }] },
      links: {},
      meta: { totalPages: 1, totalRecords: 1 },
    });
    expect(missing).toMatchObject({ ok: false, error: { path: 'data.transactions[0].amount' } });
  });

  it('read an account detail with old-shape fees and the intermediary error block', () => {
    const account = {
      accountId: 'acc-1',
      displayName: 'Everyday',
      maskedNumber: 'xxxx1234',
      productCategory: 'TRANS_AND_SAVINGS_ACCOUNTS',
      productName: 'Everyday Account',
      fees: [{ name: 'Monthly fee', feeType: 'PERIODIC', amount: '5.00' }],
      balance: { currentBalance: '100.00', availableBalance: '90.00' },
      adatree: {
        ...adatree,
        errors: [{ code: 'THROTTLED_BY_DATA_HOLDER_ERROR', title: 'Throttled', detail: 'Try later', retryAfter: null }],
      },
    };
    expect(parseTolerant(dataPair('BankingAccountDetail'), account)).toMatchObject({ ok: true, unknownValues: [] });
  });

  it('read customers, energy usage and invoices, and reject a usage read without its date', () => {
    const person = { customerUType: 'person', person: { lastName: 'Citizen', middleNames: [] }, adatree };
    expect(parseTolerant(dataPair('CommonCustomer'), person)).toMatchObject({ ok: true });
    const read = {
      servicePointId: 'sp',
      registerSuffix: 'E1',
      readStartDate: '2026-10-01',
      readUType: 'intervalRead',
      intervalRead: { aggregateValue: 12.5, intervalReads: [0.5, 0.7] },
      adatree,
    };
    expect(parseTolerant(dataPair('EnergyUsageRead'), read)).toMatchObject({ ok: true });
    expect(parseTolerant(dataPair('EnergyUsageRead'), { ...read, readStartDate: '1 Oct' })).toMatchObject({
      ok: false,
      error: { path: 'readStartDate' },
    });
    const invoice = {
      accountId: 'e1',
      invoiceNumber: 'INV-1',
      issueDate: '2026-10-05',
      balanceAtIssue: '120.00',
      servicePoints: ['sp'],
      paymentStatus: 'OVERDUE',
      adatree,
    };
    expect(parseTolerant(dataPair('EnergyInvoice'), invoice)).toMatchObject({
      ok: true,
      unknownValues: [{ path: 'paymentStatus', value: 'OVERDUE' }],
    });
  });
});

describe('timestamps', () => {
  const ok = (t: string) => parseTolerant(pair('ConsentEvent'), { eventType: 'GRANTED', timestamp: t, consentId: 'c' }).ok;
  it.each([
    '2026-11-01T09:30:00.000Z',
    '2026-11-01T09:30:00Z',
    '2022-12-12T03:27:31.684+0000',
    '2026-11-01T19:30:00+10:00',
    '2026-11-01T09:30Z',
    '2024-02-29T00:00:00Z',
  ])('accept %s', (t) => {
    expect(ok(t)).toBe(true);
  });
  it.each([
    '2026-11-01',
    '2026-11-01T09:30:00',
    '2026-02-30T00:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-11-01T25:00:00Z',
    'yesterday',
    '1730000000',
  ])('reject %s', (t) => {
    expect(ok(t)).toBe(false);
  });
});
