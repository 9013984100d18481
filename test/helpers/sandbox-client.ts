import { afterAll, beforeAll } from 'vitest';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../electron/sandbox/server.js';
import { tokenFor } from './temp.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- API bodies are read as loose JSON in tests */

/** A sandbox for one test file, with a token and JSON helpers over real HTTP. */
export function useSandbox(opts: SandboxOptions = {}) {
  const s = {} as { sandbox: RunningSandbox; token: string };
  beforeAll(async () => {
    s.sandbox = await startSandbox(opts);
    s.token = await tokenFor(s.sandbox.url);
  });
  afterAll(() => s.sandbox.close());
  const call = async (method: string, path: string, body?: unknown, token: string | null = s.token) => {
    const res = await fetch(`${s.sandbox.url}${path}`, {
      method,
      redirect: 'manual',
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    let json: any;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, json, text };
  };
  return {
    get sandbox() {
      return s.sandbox;
    },
    get token() {
      return s.token;
    },
    call,
    get: (path: string) => call('GET', path),
    /** Every consent, by paging the v2 list. */
    async allConsents(query = ''): Promise<any[]> {
      const out: any[] = [];
      for (let page = 1; ; page++) {
        const r = await call('GET', `/consents/v2?pageSize=1000&page=${page}${query ? `&${query}` : ''}`);
        out.push(...r.json.consents);
        if (!r.json.links.next) return out;
      }
    },
    admin: (method: string, path: string, body?: unknown) => call(method, `/__sandbox${path}`, body, null),
  };
}
