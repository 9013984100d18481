import { chmodSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allowedNames, boundUrl, clientAddress, isLoopback, listenProblem, loadTls, servedOverHttps } from '../../electron/host/listen.js';
import { hostListen } from '../../electron/host/run.js';
import { tempDir } from '../helpers/temp.js';
import { selfSignedCert } from '../helpers/tls.js';

const pem = { cert: 'c', key: 'k' };
const dir = tempDir('cdr-listen-');

/** A request as the server sees it: headers and the socket's peer. */
const req = (headers: Record<string, string | string[]>, peer = '10.0.0.5') =>
  ({ headers, socket: { remoteAddress: peer } }) as unknown as IncomingMessage;

describe('where the browser host may listen', () => {
  it('serves loopback as before, with nothing else needed', () => {
    expect(listenProblem({})).toBeNull();
    for (const host of ['127.0.0.1', '::1', '[::1]', 'localhost', '127.0.0.2']) expect(listenProblem({ host })).toBeNull();
    expect(isLoopback('192.168.1.20')).toBe(false);
    expect(isLoopback('localhost.example.com')).toBe(false);
  });

  it('refuses plain HTTP beyond loopback (0.0.0.0, ::, a LAN address, a name), naming the options', () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.20', 'fd00::20', 'console.internal']) {
      const problem = listenProblem({ host });
      expect(problem).toMatch(new RegExp(`^--host ${host.replace(/\./g, '\\.')} is beyond this machine: plain HTTP there is refused`));
      expect(problem).toMatch(/--tls-cert FILE and --tls-key FILE/);
      expect(problem).toMatch(/--trust-proxy and --public-url https:/);
    }
  });

  it('serves beyond loopback with TLS, or behind a proxy with its public URL', () => {
    expect(listenProblem({ host: '192.168.1.20', tls: pem })).toBeNull();
    expect(listenProblem({ host: '192.168.1.20', tls: pem, publicUrl: 'https://console.example.com' })).toBeNull();
    expect(listenProblem({ host: '0.0.0.0', tls: pem, publicUrl: 'https://console.example.com:8443' })).toBeNull();
    expect(listenProblem({ host: '10.0.0.2', trustProxy: true, publicUrl: 'https://console.example.com' })).toBeNull();
    expect(listenProblem({ trustProxy: true, publicUrl: 'https://console.example.com' })).toBeNull();
  });

  it('says what the public URL must be, and when it is required', () => {
    expect(listenProblem({ trustProxy: true })).toMatch(/^--trust-proxy needs --public-url https:/);
    expect(listenProblem({ host: '0.0.0.0', tls: pem })).toMatch(/listens on every interface and names none: give --public-url/);
    expect(listenProblem({ trustProxy: true, publicUrl: 'http://console.example.com' })).toMatch(/must be https:\/\/ .*behind a proxy/);
    expect(listenProblem({ host: '192.168.1.20', tls: pem, publicUrl: 'http://c.example' })).toMatch(/must be https:\/\/ .*over TLS/);
    expect(listenProblem({ publicUrl: 'console.example.com' })).toMatch(/is not a URL/);
    expect(listenProblem({ publicUrl: 'ftp://console.example.com' })).toMatch(/https:\/\//);
    expect(listenProblem({ trustProxy: true, publicUrl: 'https://console.example.com/app' })).toMatch(/without a path/);
    expect(listenProblem({ trustProxy: true, publicUrl: 'https://u:p@console.example.com' })).toMatch(/credentials/);
    // On loopback without TLS, a plain public name (e.g. from /etc/hosts) is allowed.
    expect(listenProblem({ publicUrl: 'http://console.local:8080' })).toBeNull();
  });
});

describe('the Host and Origin the browser host accepts', () => {
  it('on loopback: 127.0.0.1, [::1] and localhost with the port, over http', () => {
    const { hosts, origins } = allowedNames({}, 4000);
    expect([...hosts].sort()).toEqual(['127.0.0.1:4000', '[::1]:4000', 'localhost:4000']);
    expect(origins).toContain('http://localhost:4000');
    expect(origins).not.toContain('https://localhost:4000');
  });

  it('on an address with TLS: that address over https, and the public URL', () => {
    const { hosts, origins } = allowedNames({ host: '192.168.1.20', tls: pem, publicUrl: 'https://console.example.com' }, 8443);
    expect([...hosts].sort()).toEqual(['192.168.1.20:8443', 'console.example.com']);
    expect([...origins].sort()).toEqual(['https://192.168.1.20:8443', 'https://console.example.com']);
    expect(allowedNames({ host: 'fd00::20', tls: pem }, 8443).hosts).toEqual(new Set(['[fd00::20]:8443']));
  });

  it('behind a proxy: the public URL over https only (and the bound address for the proxy itself)', () => {
    const { hosts, origins } = allowedNames({ trustProxy: true, publicUrl: 'https://console.example.com' }, 4000);
    expect(hosts).toContain('console.example.com');
    expect(origins).toContain('https://console.example.com');
    expect(origins).not.toContain('http://console.example.com');
  });

  it('on every interface: the public URL only', () => {
    const { hosts } = allowedNames({ host: '0.0.0.0', tls: pem, publicUrl: 'https://console.example.com:8443' }, 8443);
    expect([...hosts]).toEqual(['console.example.com:8443']);
  });

  it('prints the bound URL in its scheme', () => {
    expect(boundUrl({}, 4000)).toBe('http://127.0.0.1:4000/');
    expect(boundUrl({ host: '::1', tls: pem }, 4000)).toBe('https://[::1]:4000/');
  });
});

describe("the client's address and scheme", () => {
  it('is the socket peer unless the proxy is trusted: X-Forwarded-* are ignored then', () => {
    const r = req({ 'x-forwarded-for': '203.0.113.9', 'x-forwarded-proto': 'https' });
    expect(clientAddress(r, false)).toBe('10.0.0.5');
    expect(servedOverHttps(r, {})).toBe(false);
  });

  it("with --trust-proxy: the right-most X-Forwarded-For entry (the proxy's), never what the client claimed", () => {
    expect(clientAddress(req({ 'x-forwarded-for': '203.0.113.9' }), true)).toBe('203.0.113.9');
    expect(clientAddress(req({ 'x-forwarded-for': '1.2.3.4, 198.51.100.7' }), true)).toBe('198.51.100.7');
    expect(clientAddress(req({ 'x-forwarded-for': ['1.2.3.4', '2001:db8::1'] }), true)).toBe('2001:db8::1');
    expect(clientAddress(req({ 'x-forwarded-for': '[2001:db8::1]:4711' }), true)).toBe('2001:db8::1');
    expect(clientAddress(req({ 'x-forwarded-for': '198.51.100.7:4711' }), true)).toBe('198.51.100.7');
    // Missing or not an address: the peer (the proxy), never a made-up string.
    expect(clientAddress(req({}), true)).toBe('10.0.0.5');
    expect(clientAddress(req({ 'x-forwarded-for': '1.2.3.4, evil' }), true)).toBe('10.0.0.5');
    expect(servedOverHttps(req({ 'x-forwarded-proto': 'https' }), { trustProxy: true })).toBe(true);
    expect(servedOverHttps(req({ 'x-forwarded-proto': 'http' }), { trustProxy: true })).toBe(false);
    expect(servedOverHttps(req({}), { tls: pem })).toBe(true);
  });
});

describe('TLS files', () => {
  const good = selfSignedCert(dir, 'good');
  const other = selfSignedCert(dir, 'other');

  it('loads a matching PEM certificate and key', () => {
    expect(loadTls(good.certFile, good.keyFile).cert.toString()).toMatch(/BEGIN CERTIFICATE/);
  });

  it('says which file is missing, unreadable, not PEM, or which key is not the certificate’s', () => {
    expect(() => loadTls(good.certFile, undefined)).toThrow('--tls-cert FILE and --tls-key FILE go together: give both');
    expect(() => loadTls(join(dir, 'nope.pem'), good.keyFile)).toThrow(`--tls-cert ${join(dir, 'nope.pem')} cannot be read: no such file`);
    expect(() => loadTls(good.certFile, dir)).toThrow(`--tls-key ${dir} cannot be read: is a folder`);
    expect(() => loadTls(good.keyFile, good.keyFile)).toThrow('is not a PEM certificate');
    expect(() => loadTls(good.certFile, good.certFile)).toThrow('is not a PEM private key');
    expect(() => loadTls(good.certFile, other.keyFile)).toThrow(
      `--tls-key ${other.keyFile} is not the key of the certificate ${good.certFile}`,
    );
    if (process.getuid?.() !== 0) {
      const locked = join(dir, 'locked.pem');
      writeFileSync(locked, good.key);
      chmodSync(locked, 0o000);
      expect(() => loadTls(good.certFile, locked)).toThrow('cannot be read: permission denied');
    }
  });

  it('the command line: a refused combination or a bad file is one problem, before any file of the address is read', () => {
    expect(hostListen({ port: 0, sync: true, syncEvery: 0, host: '0.0.0.0' })).toEqual({
      problem: expect.stringMatching(/^--host 0\.0\.0\.0 is beyond this machine/),
    });
    expect(
      hostListen({ port: 0, sync: true, syncEvery: 0, host: '192.168.1.20', tlsCert: join(dir, 'nope.pem'), tlsKey: good.keyFile }),
    ).toEqual({
      problem: expect.stringMatching(/cannot be read: no such file/),
    });
    expect(hostListen({ port: 0, sync: true, syncEvery: 0, tlsCert: good.certFile, tlsKey: good.keyFile, trustProxy: true })).toEqual({
      problem: expect.stringMatching(/exclude each other/),
    });
    const ok = hostListen({ port: 0, sync: true, syncEvery: 0, host: '192.168.1.20', tlsCert: good.certFile, tlsKey: good.keyFile });
    expect(ok).toMatchObject({ listen: { host: '192.168.1.20', tls: { cert: good.cert, key: good.key } } });
    expect(hostListen({ port: 0, sync: true, syncEvery: 0 })).toEqual({ listen: {} });
  });
});
