import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pathSegment } from '../../electron/core/api/http.js';
import { loadProfiles, Profile } from '../../electron/core/config/profiles.js';
import { normalizePayload, NormalizeError } from '../../shared/banking/index.js';
import { normalizeRecord } from '../../shared/banking/record.js';
import { contract } from '../../shared/ipc/contract.js';
import { Identifier } from '../../shared/ipc/identifier.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('identifiers', () => {
  const real = [
    '8d0c6f4e-59a3-4a8b-9f3e-2b1c0d9e8f7a', // the sandbox's and the intermediary's UUIDs
    'arr_01HZX9Q3K7:bank|2',
    'a'.repeat(200),
    'v2', // odd but harmless: encoded as a segment, it names a consent, not a version
  ];
  const bad: [string, RegExp][] = [
    ['', /empty/],
    ['.', /path segment/],
    ['..', /path segment/],
    ['a/b', /"\/"/],
    ['a\\b', /"\\"/],
    ['has space', /U\+0020/],
    ['tab\there', /U\+0009/],
    ['nul\u0000', /U\+0000/],
    ['\ud800', /U\+D800/],
    ['é', /U\+00E9/],
    ['a'.repeat(201), /201 characters long/],
  ];

  it.each(real)('accepts %s', (id) => expect(Identifier.safeParse(id).success).toBe(true));
  it.each(bad)('refuses %j, saying why', (id, why) => {
    const r = Identifier.safeParse(id);
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.message).toMatch(why);
  });

  it('every IPC channel taking an id refuses a bad one: consent, use case, data holder, job ids', () => {
    const cases: [keyof typeof contract, unknown][] = [
      ['consents:get', { consentId: '..' }],
      ['consents:revoke', { consentId: '..', reason: 'ticket 1' }],
      ['consents:revoke', { consentId: '', reason: 'ticket 1' }],
      ['bulk:revoke', { consentIds: ['ok-1', 'a/b'], reason: 'ticket 1' }],
      ['evidence:export', { consentId: '.' }],
      ['jobs:export', { jobId: '../x', format: 'csv' }],
      ['consents:list', { filter: { useCaseIds: ['a b'] }, sort: { field: 'created', direction: 'desc' }, offset: 0, limit: 10 }],
      ['consents:list', { filter: { dataHolderBrandIds: ['..'] }, sort: { field: 'created', direction: 'desc' }, offset: 0, limit: 10 }],
    ];
    for (const [channel, input] of cases) {
      const r = (
        contract[channel].input as { safeParse(v: unknown): { success: boolean; error?: { issues: { message: string }[] } } }
      ).safeParse(input);
      expect(r.success, `${channel} ${JSON.stringify(input)}`).toBe(false);
      expect(r.error!.issues.map((i) => i.message).join(' ')).toMatch(/not an identifier/);
    }
    // And a real one passes.
    expect(contract['consents:get'].input.safeParse({ consentId: real[0] }).success).toBe(true);
  });

  it('URL path segments: encoded, and never ".", ".." or empty, so no id reaches another path', () => {
    expect(pathSegment('v2', 'consent id', 'GET /consents/{id}')).toBe('v2');
    expect(pathSegment('a:b|c', 'consent id', 'GET /consents/{id}')).toBe('a%3Ab%7Cc');
    for (const id of ['..', '.', '', 'a/b', '%2e%2e/x'.replace('%2e%2e', '..')])
      expect(() => pathSegment(id, 'consent id', 'DELETE /consents/{id}')).toThrow(/not an identifier/);
  });
});

describe('profile URLs', () => {
  const base = {
    id: 'p',
    name: 'P',
    environment: 'prod',
    consentApiBaseUrl: 'https://api.example/',
    dataApiBaseUrl: 'https://api.example/',
    tokenUrl: 'https://auth.example/token',
    clientId: 'c',
    clientAuth: { method: 'client_secret_basic' },
  };
  const problem = (over: Record<string, unknown>) => {
    const r = Profile.safeParse({ ...base, ...over });
    return r.success ? null : `${r.error.issues[0]!.path.join('.')}: ${r.error.issues[0]!.message}`;
  };

  it('a production profile needs https for the API and token endpoints, naming the field', () => {
    expect(problem({})).toBeNull();
    expect(problem({ tokenUrl: 'http://auth.example/token' })).toBe(
      'tokenUrl: tokenUrl must use https in a production profile (http is allowed only for 127.0.0.1, ::1 and localhost)',
    );
    expect(problem({ consentApiBaseUrl: 'http://api.example/' })).toMatch(/^consentApiBaseUrl: .*must use https/);
    expect(problem({ dataApiBaseUrl: 'http://api.example/' })).toMatch(/^dataApiBaseUrl: .*must use https/);
  });

  it('loopback http is allowed in production (a local proxy); any http outside production', () => {
    for (const host of ['127.0.0.1:8080', '[::1]:8080', 'localhost:8080']) expect(problem({ tokenUrl: `http://${host}/token` })).toBeNull();
    expect(problem({ environment: 'nonprod', tokenUrl: 'http://auth.example/token' })).toBeNull();
    expect(problem({ tokenUrl: 'http://127.0.0.2.example/token' })).toMatch(/must use https/);
  });

  it('file:, javascript: and data: URLs are refused for any profile and any URL field', () => {
    for (const environment of ['prod', 'nonprod', 'sandbox'])
      for (const [field, url] of [
        ['consentApiBaseUrl', 'file:///etc/passwd'],
        ['tokenUrl', 'javascript:alert(1)'],
        ['dataApiBaseUrl', 'data:text/plain,hi'],
        ['redirectUri', 'javascript:alert(1)'],
      ] as const)
        expect(problem({ environment, [field]: url })).toMatch(new RegExp(`^${field}: ${field} cannot be a (file|javascript|data): URL`));
    expect(problem({ environment: 'nonprod', tokenUrl: 'ftp://auth.example/token' })).toBe(
      'tokenUrl: tokenUrl must be an https URL (not ftp:)',
    );
  });

  it('profiles.json with a production http endpoint is refused on load, naming the profile field', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cdr-profiles-'));
    dirs.push(dir);
    writeFileSync(
      join(dir, 'profiles.json'),
      JSON.stringify({ version: 1, defaultProfileId: 'p', profiles: [{ ...base, tokenUrl: 'http://auth.example/t' }] }),
    );
    expect(() => loadProfiles(dir)).toThrow(/profiles\.json: profiles\.0\.tokenUrl: tokenUrl must use https in a production profile/);
  });

  it('profiles.json with a UTF-8 byte order mark is read', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cdr-profiles-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'profiles.json'), `\uFEFF${JSON.stringify({ version: 1, defaultProfileId: 'p', profiles: [base] })}`);
    expect(loadProfiles(dir).profiles[0]!.tokenUrl).toBe('https://auth.example/token');
  });
});

describe('absurd nesting in the normaliser', () => {
  const deep = (levels: number) => {
    let v: unknown = 1;
    for (let i = 0; i < levels; i++) v = { nested: v };
    return v;
  };

  it('a 100,000-deep product is refused with a clear error naming where, not a stack overflow', () => {
    const product = { productId: 'p1', name: 'Deep', fees: [deep(100_000)] };
    let error: unknown;
    try {
      normalizePayload(product);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(NormalizeError);
    expect((error as Error).message).toMatch(/^fees\[0\](\.nested)+: nested more than 64 levels deep; refused$/);
    expect(() => normalizeRecord(product as never)).toThrow(/nested more than 64 levels deep; refused/);
  });

  it('real depths pass', () => {
    const product = { productId: 'p1', name: 'Shallow', fees: [{ name: 'f', feeType: 'PERIODIC', amount: '1.00', extra: deep(50) }] };
    expect(() => normalizePayload({ data: { products: [product] } })).not.toThrow();
  });
});
