import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/** A temporary directory removed after the file's tests: tests never share state or touch the user's data. */
export function tempDir(prefix = 'cdr-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export async function tokenFor(baseUrl: string, opts: { clientId?: string; secret?: string; scope?: string } = {}): Promise<string> {
  const form = new URLSearchParams({ grant_type: 'client_credentials' });
  if (opts.scope) form.set('scope', opts.scope);
  const res = await fetch(`${baseUrl}/oauth2/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${opts.clientId ?? 'sandbox-client'}:${opts.secret ?? 'sandbox-secret'}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: form,
  });
  if (!res.ok) throw new Error(`token: ${res.status}`);
  return ((await res.json()) as { access_token: string }).access_token;
}
