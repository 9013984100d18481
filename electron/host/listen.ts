import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { createSecureContext } from 'node:tls';

/**
 * Where and how the browser host listens (issue 20, "Serve a real network").
 *
 * - A loopback address (127.0.0.1, the default; ::1; localhost) is served as before: plain HTTP
 *   to this machine only.
 * - Any other address needs TLS (`tls`: the host serves HTTPS itself) or `trustProxy` (plain HTTP
 *   that only a reverse proxy terminating TLS reaches); plain HTTP beyond loopback is refused.
 * - `publicUrl` is the address people type (https://console.example.com). The Host and Origin
 *   checks accept it besides the bound address. It is required with `trustProxy` (the browser's
 *   Origin is the proxy's) and with a wildcard address (0.0.0.0, ::), which names no host; it must
 *   be https whenever the host is served beyond loopback or behind a proxy.
 * - With TLS or behind a proxy the session cookie is `Secure`, and HTTPS responses carry
 *   Strict-Transport-Security. Only with `trustProxy` does X-Forwarded-For give the client's
 *   address (its right-most entry, the one the proxy added) and X-Forwarded-Proto the scheme;
 *   otherwise X-Forwarded-* headers are ignored.
 */
export interface ListenOptions {
  /** Address to bind (default 127.0.0.1). */
  host?: string;
  /** PEM certificate (chain) and private key: the host serves HTTPS. */
  tls?: { cert: string | Buffer; key: string | Buffer };
  /** Plain HTTP reached only through a reverse proxy that terminates TLS and adds X-Forwarded-For. */
  trustProxy?: boolean;
  /** The URL people open, e.g. https://console.example.com (no path, query or credentials). */
  publicUrl?: string;
}

export const DEFAULT_LISTEN_HOST = '127.0.0.1';

/** One year, the usual HSTS lifetime; no includeSubDomains: the console does not speak for sibling hosts. */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000';

export function isLoopback(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (h === 'localhost' || h === '::1') return true;
  return isIP(h) === 4 && h.startsWith('127.');
}

function isWildcard(host: string): boolean {
  const h = host.replace(/^\[(.*)\]$/, '$1');
  return h === '0.0.0.0' || h === '::' || h === '';
}

/** The public URL parsed, or why it cannot be one. */
function parsePublicUrl(value: string): URL | string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `--public-url ${JSON.stringify(value)} is not a URL (e.g. https://console.example.com)`;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `--public-url must be an https:// (or http://) URL`;
  if (url.username || url.password || url.search || url.hash || (url.pathname !== '/' && url.pathname !== ''))
    return `--public-url must be the site's address only (scheme, host, port), without a path, query or credentials`;
  return url;
}

/**
 * Why `listen` must not be served, in one line that names the options to use, or null when it may.
 * The browser host refuses to start on the same rules, and the command line exits 2 with this line.
 */
export function listenProblem(listen: ListenOptions = {}): string | null {
  const host = listen.host ?? DEFAULT_LISTEN_HOST;
  if (!host.trim()) return '--host needs an address (e.g. 127.0.0.1, 0.0.0.0, 192.168.1.20)';
  const loopback = isLoopback(host);
  const wildcard = isWildcard(host);
  if (!loopback && !listen.tls && !listen.trustProxy)
    return `--host ${host} is beyond this machine: plain HTTP there is refused; give --tls-cert FILE and --tls-key FILE (HTTPS), or --trust-proxy and --public-url https://… behind a reverse proxy that terminates TLS (see "Serving a real network" in docs/running.md)`;
  const publicUrl = listen.publicUrl === undefined ? undefined : parsePublicUrl(listen.publicUrl);
  if (typeof publicUrl === 'string') return publicUrl;
  if (listen.trustProxy && !publicUrl)
    return '--trust-proxy needs --public-url https://… (the address people open through the proxy: the Host and Origin checks accept it)';
  if (wildcard && !publicUrl)
    return `--host ${host} listens on every interface and names none: give --public-url https://… (the address people open)`;
  if (publicUrl && publicUrl.protocol !== 'https:' && (!loopback || listen.tls || listen.trustProxy))
    return `--public-url must be https:// when the console is served ${listen.trustProxy ? 'behind a proxy' : 'over TLS'}`;
  return null;
}

function hostName(host: string): string {
  const h = host.replace(/^\[(.*)\]$/, '$1');
  return isIP(h) === 6 ? `[${h}]` : h;
}

/**
 * What the Host and Origin headers may say: the bound address's names with its port (for a
 * loopback address, 127.0.0.1, [::1] and localhost) and the public URL's host. The public URL's
 * origin is its own scheme's only (https://console.example.com, not http://).
 */
export function allowedNames(listen: ListenOptions, port: number): { hosts: Set<string>; origins: Set<string> } {
  const host = listen.host ?? DEFAULT_LISTEN_HOST;
  const scheme = listen.tls ? 'https' : 'http';
  const names = isLoopback(host) ? new Set([hostName(host.toLowerCase()), '127.0.0.1', '[::1]', 'localhost']) : new Set([hostName(host)]);
  if (isWildcard(host)) names.clear();
  const hosts = new Set([...names].map((n) => `${n}:${port}`));
  const origins = new Set([...hosts].map((h) => `${scheme}://${h}`));
  if (listen.publicUrl) {
    const url = new URL(listen.publicUrl);
    hosts.add(url.host);
    origins.add(url.origin);
  }
  return { hosts, origins };
}

/** The URL of the bound server (what the terminal prints when there is no public URL). */
export function boundUrl(listen: ListenOptions, port: number): string {
  return `${listen.tls ? 'https' : 'http'}://${hostName(listen.host ?? DEFAULT_LISTEN_HOST)}:${port}/`;
}

/**
 * The client's address, for the audit log and the rate limits: the socket's peer, or with
 * `trustProxy` the right-most X-Forwarded-For entry (the one our proxy added; entries to its left
 * are whatever the client claimed). Without `trustProxy` X-Forwarded-For is never read.
 */
export function clientAddress(req: IncomingMessage, trustProxy: boolean | undefined): string {
  const peer = req.socket.remoteAddress ?? 'unknown';
  if (!trustProxy) return peer;
  const header = req.headers['x-forwarded-for'];
  const last = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',').pop()?.trim() ?? '';
  const bare = last.replace(/^\[(.*)\](:\d+)?$/, '$1').replace(/^(\d+\.\d+\.\d+\.\d+):\d+$/, '$1');
  return isIP(bare) ? bare : peer;
}

/** Whether the browser reached the console over HTTPS: our own TLS, or a trusted proxy's X-Forwarded-Proto. */
export function servedOverHttps(req: IncomingMessage, listen: ListenOptions): boolean {
  if (listen.tls) return true;
  if (!listen.trustProxy) return false;
  const proto = req.headers['x-forwarded-proto'];
  return (Array.isArray(proto) ? proto.join(',') : (proto ?? '')).split(',').pop()?.trim().toLowerCase() === 'https';
}

/**
 * Reads the certificate and key files and checks that they make a TLS context (PEM, matching), so a
 * bad pair is one clear line before anything starts rather than an OpenSSL error at the first
 * connection. Throws an Error whose message names the option and the file.
 */
export function loadTls(certFile: string | undefined, keyFile: string | undefined): { cert: Buffer; key: Buffer } {
  if (!certFile || !keyFile) throw new Error('--tls-cert FILE and --tls-key FILE go together: give both');
  const read = (option: string, file: string) => {
    try {
      return readFileSync(file);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const why =
        code === 'ENOENT'
          ? 'no such file'
          : code === 'EACCES'
            ? 'permission denied'
            : code === 'EISDIR'
              ? 'is a folder'
              : (error as Error).message;
      throw new Error(`${option} ${file} cannot be read: ${why}`, { cause: error });
    }
  };
  const cert = read('--tls-cert', certFile);
  const key = read('--tls-key', keyFile);
  if (!/-----BEGIN [A-Z0-9 ]*CERTIFICATE-----/.test(cert.toString('latin1')))
    throw new Error(`--tls-cert ${certFile} is not a PEM certificate (-----BEGIN CERTIFICATE-----)`);
  if (!/-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/.test(key.toString('latin1')))
    throw new Error(`--tls-key ${keyFile} is not a PEM private key (-----BEGIN PRIVATE KEY-----)`);
  try {
    createSecureContext({ cert, key });
  } catch (error) {
    const message = (error as Error).message;
    if (/mismatch/i.test(message)) throw new Error(`--tls-key ${keyFile} is not the key of the certificate ${certFile}`, { cause: error });
    throw new Error(`--tls-cert ${certFile} and --tls-key ${keyFile} cannot be used: ${message}`, { cause: error });
  }
  return { cert, key };
}
