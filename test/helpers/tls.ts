import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A self-signed certificate (P-256) for 127.0.0.1, localhost and `names`, made by the openssl
 * command line in `dir` (CI's images and developers' machines have it; Node cannot issue
 * certificates itself). Returns the files and their contents, the certificate doubling as the CA
 * a client trusts.
 */
export function selfSignedCert(
  dir: string,
  name = 'host',
  names: string[] = [],
): { certFile: string; keyFile: string; cert: Buffer; key: Buffer } {
  const certFile = join(dir, `${name}-cert.pem`);
  const keyFile = join(dir, `${name}-key.pem`);
  const san = ['IP:127.0.0.1', 'DNS:localhost', ...names.map((n) => `DNS:${n}`)].join(',');
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        keyFile,
        '-out',
        certFile,
        '-days',
        '2',
        '-subj',
        '/CN=localhost',
        '-addext',
        `subjectAltName=${san}`,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
  } catch (error) {
    throw new Error(`The TLS tests need the openssl command line to make a self-signed certificate: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return { certFile, keyFile, cert: readFileSync(certFile), key: readFileSync(keyFile) };
}
