import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  clearTeamClient,
  clientMayNavigate,
  readTeamClient,
  TEAM_CLIENT_FILE,
  teamServerAddress,
  writeTeamClient,
} from '../../electron/core/team-client.js';

describe('the desktop as a team server’s client', () => {
  it('accepts https addresses and http on this machine, keeping the origin only', () => {
    expect(teamServerAddress(' https://console.example.com/some/page?x=1 ').origin).toBe('https://console.example.com');
    expect(teamServerAddress('http://127.0.0.1:8443').origin).toBe('http://127.0.0.1:8443');
    expect(teamServerAddress('http://localhost:3000/').origin).toBe('http://localhost:3000');
  });

  it('refuses plain http beyond this machine, credentials in the address, other schemes and non-addresses, saying why', () => {
    expect(() => teamServerAddress('http://console.example.com')).toThrow('reached over https');
    expect(() => teamServerAddress('https://sam:pw@console.example.com')).toThrow('carries a user or password');
    expect(() => teamServerAddress('file:///etc/passwd')).toThrow('starts with https://');
    expect(() => teamServerAddress('javascript:alert(1)')).toThrow('starts with https://');
    expect(() => teamServerAddress('console')).toThrow('is not an address');
  });

  it('keeps the address in the data directory (owner only); a damaged file is solo mode; switching back removes it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cdr-team-client-'));
    expect(readTeamClient(dir)).toBeNull();
    writeTeamClient(dir, new URL('https://console.example.com'), new Date('2026-11-26T01:00:00Z'));
    expect(readTeamClient(dir)).toEqual({ url: 'https://console.example.com', since: '2026-11-26T01:00:00.000Z' });
    expect(JSON.parse(readFileSync(join(dir, TEAM_CLIENT_FILE), 'utf8')).url).toBe('https://console.example.com');
    writeFileSync(join(dir, TEAM_CLIENT_FILE), '{"url": "http://evil.example.com", "since": "x"}');
    expect(readTeamClient(dir)).toBeNull();
    writeFileSync(join(dir, TEAM_CLIENT_FILE), '{not json');
    expect(readTeamClient(dir)).toBeNull();
    clearTeamClient(dir);
    expect(readTeamClient(dir)).toBeNull();
  });

  it('lets the window go to the server, and to an https site only when the server’s sign-in sends it there', () => {
    const team = new URL('http://127.0.0.1:8443');
    const providers = new Set<string>();
    const signIn = 'http://127.0.0.1:8443/signin';
    const consoleUrl = 'http://127.0.0.1:8443/#/consents';
    expect(clientMayNavigate('http://127.0.0.1:8443/#/consents', team, signIn, providers)).toBe(true);
    // From the console, a link to some https site stays out of the window.
    expect(clientMayNavigate('https://phish.example.com/', team, consoleUrl, providers)).toBe(false);
    // The sign-in page's single sign-on goes to the provider, which is then known.
    expect(clientMayNavigate('https://id.example.com/authorize?x', team, signIn, providers)).toBe(true);
    expect(clientMayNavigate('https://id.example.com/login', team, 'https://id.example.com/authorize?x', providers)).toBe(true);
    expect(clientMayNavigate('http://127.0.0.1:9999/', team, signIn, providers)).toBe(false);
    expect(clientMayNavigate('file:///etc/passwd', team, signIn, providers)).toBe(false);
    expect(clientMayNavigate('not a url', team, signIn, providers)).toBe(false);
  });
});
