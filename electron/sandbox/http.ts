import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { BodyFaultKind } from './faults.js';

/** HTTP helpers of the sandbox: CDS error lists, JSON bodies, bounded request bodies, injected body faults. */
export interface CdsError {
  code: string;
  title: string;
  detail: string;
}

/** Body faults to apply to the next JSON response on a connection (see faults.ts). */
export const bodyFaults = new WeakMap<ServerResponse, BodyFaultKind>();

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  let text = JSON.stringify(body);
  const fault = bodyFaults.get(res);
  if (fault === 'malformed') text = `${text.slice(0, -1)},}`;
  if (fault === 'truncated') text = text.slice(0, Math.max(1, Math.floor(text.length / 2)));
  if (fault === 'reset') {
    // The whole length is announced, half is sent, then the connection is reset: the client's read fails mid-body.
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(text),
      'x-fapi-interaction-id': randomUUID(),
      ...headers,
    });
    res.write(text.slice(0, Math.max(1, Math.floor(text.length / 2))), () => res.destroy());
    return;
  }
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'x-fapi-interaction-id': randomUUID(),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(text);
}

export function sendErrors(res: ServerResponse, status: number, errors: CdsError[], headers: Record<string, string> = {}): void {
  sendJson(res, status, { errors }, headers);
}

const CDS = 'urn:au-cds:error:cds-all';
export const err = {
  invalidField: (detail: string): CdsError => ({ code: `${CDS}:Field/Invalid`, title: 'Invalid Field', detail }),
  missingField: (detail: string): CdsError => ({ code: `${CDS}:Field/Missing`, title: 'Missing Required Field', detail }),
  invalidBody: (detail: string): CdsError => ({ code: `${CDS}:Header/InvalidBody`, title: 'Invalid Body', detail }),
  notFound: (detail: string): CdsError => ({ code: `${CDS}:Resource/NotFound`, title: 'Resource Not Found', detail }),
  unprocessable: (detail: string): CdsError => ({ code: `${CDS}:Resource/Invalid`, title: 'Unprocessable Entity', detail }),
  unexpected: (detail: string): CdsError => ({ code: `${CDS}:GeneralError/Unexpected`, title: 'Unexpected Error', detail }),
};

export class BodyTooLarge extends Error {}

export async function readBody(req: IncomingMessage, limit = 1_000_000): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new BodyTooLarge(`request body over ${limit} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A JSON object body, or a 400 already sent (returns undefined). */
export async function readJsonObject(req: IncomingMessage, res: ServerResponse): Promise<Record<string, unknown> | undefined> {
  let text: string;
  try {
    text = await readBody(req, 100_000);
  } catch (error) {
    sendErrors(res, error instanceof BodyTooLarge ? 413 : 400, [err.invalidBody((error as Error).message)]);
    return undefined;
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    sendErrors(res, 400, [err.invalidBody('The body is not valid JSON')]);
    return undefined;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    sendErrors(res, 400, [err.invalidBody('The body must be a JSON object')]);
    return undefined;
  }
  return body as Record<string, unknown>;
}

/** Parses an integer query parameter; the fallback when absent, an error message when bad. */
export function intParam(query: URLSearchParams, name: string, min: number, max: number, fallback: number): number | string {
  const raw = query.get(name);
  if (raw === null) return fallback;
  if (!/^\d+$/.test(raw)) return `${name} must be an integer`;
  const n = Number(raw);
  if (n < min || n > max) return `${name} must be between ${min} and ${max}`;
  return n;
}

/** A list parameter sent repeated (a=x&a=y) or comma-separated (a=x,y), or both. */
export function listParam(query: URLSearchParams, name: string): string[] | undefined {
  const values = query
    .getAll(name)
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
  return values.length ? values : undefined;
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
export function dateParam(query: URLSearchParams, name: string): number | undefined | string {
  const raw = query.get(name);
  if (raw === null) return undefined;
  const t = Date.parse(raw);
  return ISO.test(raw) && !Number.isNaN(t) ? t : `${name} must be an ISO 8601 date-time`;
}

/** Links of a paged response, keeping the other query parameters. */
export function pageLinks(
  base: string,
  path: string,
  query: URLSearchParams,
  page: number,
  pageSize: number,
  total: number,
  sizeName: string,
): Record<string, string> {
  const totalPages = Math.ceil(total / pageSize);
  const link = (p: number) => {
    const u = new URL(path, base);
    for (const [k, v] of query) if (k !== 'page' && k !== sizeName) u.searchParams.append(k, v);
    u.searchParams.set('page', String(p));
    u.searchParams.set(sizeName, String(pageSize));
    return u.href;
  };
  const links: Record<string, string> = { self: link(page) };
  if (totalPages > 0) {
    links.first = link(1);
    links.last = link(totalPages);
  }
  if (page > 1) links.prev = link(Math.min(page - 1, Math.max(totalPages, 1)));
  if (page < totalPages) links.next = link(page + 1);
  return links;
}
