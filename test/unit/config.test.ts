import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dataDirFlag, platformDataDir, resolveDataDir } from '../../electron/core/data-dir.js';
import { loadProfiles, pickProfile, ProfilesError } from '../../electron/core/config/profiles.js';
import { redact } from '../../electron/core/log.js';
import { isAllowedExternalUrl } from '../../shared/security/csp.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'cdr-config-'));

describe('data directory', () => {
  it('prefers --data-dir, then CDR_CONSOLE_DATA_DIR, then the platform folder', () => {
    expect(resolveDataDir('/a/flag', { CDR_CONSOLE_DATA_DIR: '/b/env' })).toBe('/a/flag');
    expect(resolveDataDir(undefined, { CDR_CONSOLE_DATA_DIR: '/b/env' })).toBe('/b/env');
    expect(resolveDataDir(undefined, { CDR_CONSOLE_DATA_DIR: '' })).toBe(platformDataDir(process.platform, { CDR_CONSOLE_DATA_DIR: '' }));
  });

  it('uses the folder Electron would use on each platform', () => {
    expect(platformDataDir('linux', {}, '/home/u')).toBe('/home/u/.config/CDR Console');
    expect(platformDataDir('linux', { XDG_CONFIG_HOME: '/x' }, '/home/u')).toBe('/x/CDR Console');
    expect(platformDataDir('linux', { XDG_CONFIG_HOME: 'relative' }, '/home/u')).toBe('/home/u/.config/CDR Console');
    expect(platformDataDir('darwin', {}, '/Users/u')).toBe('/Users/u/Library/Application Support/CDR Console');
    expect(platformDataDir('win32', { APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }, 'C:\\Users\\u')).toContain('CDR Console');
  });

  it('reads the flag in both spellings', () => {
    expect(dataDirFlag(['node', 'x', '--data-dir', '/d'])).toBe('/d');
    expect(dataDirFlag(['node', 'x', '--data-dir=/e'])).toBe('/e');
    expect(dataDirFlag(['node', 'x'])).toBeUndefined();
  });
});

describe('profiles', () => {
  it('creates the embedded sandbox profile on first run and reads it back', () => {
    const dir = tmp();
    const first = loadProfiles(dir);
    expect(pickProfile(first, undefined)).toMatchObject({ id: 'sandbox', embedded: true, environment: 'sandbox' });
    expect(loadProfiles(dir)).toEqual(first);
    expect(readFileSync(join(dir, 'profiles.json'), 'utf8')).not.toMatch(/secret"/i);
  });

  it('reports a broken profiles.json precisely and leaves it untouched', () => {
    const dir = tmp();
    writeFileSync(join(dir, 'profiles.json'), '{ "version": 1, ');
    expect(() => loadProfiles(dir)).toThrow(/profiles\.json is not valid JSON/);
    expect(readFileSync(join(dir, 'profiles.json'), 'utf8')).toBe('{ "version": 1, ');
  });

  it.each([
    [{ version: 1, defaultProfileId: 'x', profiles: [] }, /profiles: /],
    [
      {
        version: 1,
        defaultProfileId: 'nope',
        profiles: [
          {
            id: 'a',
            name: 'A',
            environment: 'prod',
            clientId: 'c',
            clientAuth: { method: 'client_secret_basic' },
            consentApiBaseUrl: 'https://a.example',
            tokenUrl: 'https://a.example/t',
          },
        ],
      },
      /defaultProfileId "nope" names no profile/,
    ],
    [
      {
        version: 1,
        defaultProfileId: 'a',
        profiles: [{ id: 'a', name: 'A', environment: 'prod', clientId: 'c', clientAuth: { method: 'client_secret_basic' } }],
      },
      /needs consentApiBaseUrl and tokenUrl/,
    ],
    [
      {
        version: 1,
        defaultProfileId: 'a',
        profiles: [{ id: 'a', name: 'A', environment: 'live', clientId: 'c', clientAuth: { method: 'client_secret_basic' } }],
      },
      /profiles\.0\.environment/,
    ],
  ])('rejects an invalid profiles file with its reason (%#)', (content, message) => {
    const dir = tmp();
    writeFileSync(join(dir, 'profiles.json'), JSON.stringify(content));
    expect(() => loadProfiles(dir)).toThrow(ProfilesError);
    expect(() => loadProfiles(dir)).toThrow(message);
  });

  it('names the known profiles when asked for an unknown one', () => {
    expect(() => pickProfile(loadProfiles(tmp()), 'prod')).toThrow(/No profile named "prod"\. Known: sandbox/);
  });
});

describe('external links', () => {
  it.each([
    ['https://www.oaic.gov.au/consumer-data-right', true],
    ['https://consumerdatastandardsaustralia.github.io/standards/', true],
    ['https://WWW.CDR.GOV.AU', true],
    ['http://www.cdr.gov.au/', false],
    ['https://evil.example/', false],
    ['https://www.cdr.gov.au.evil.example/', false],
    ['https://evil.example@www.cdr.gov.au/', false],
    ['https://www.cdr.gov.au:8443/', false],
    ['javascript:alert(1)', false],
    ['file:///etc/passwd', false],
  ])('%s → %s', (url, allowed) => {
    expect(isAllowedExternalUrl(url)).toBe(allowed);
  });
});

describe('log redaction', () => {
  it('removes bearer tokens, JWTs, client secrets and e-mail addresses', () => {
    const line = redact(
      'GET failed Authorization: Bearer abc.def-ghi client_secret=hunter2&x=1 token eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.sig for jane.doe@example.com',
    );
    expect(line).not.toMatch(/abc\.def|hunter2|eyJhbGci|jane\.doe/);
    expect(line).toContain('[redacted]');
  });
});
