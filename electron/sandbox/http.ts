import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';

/** Small HTTP helpers of the sandbox: CDS-style error lists, JSON bodies, bounded request bodies. */
export interface CdsError {
  code: string;
  title: string;
  detail: string;
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
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

/** Parses a positive integer query parameter; undefined when absent, an error message when bad. */
export function intParam(query: URLSearchParams, name: string, min: number, max: number, fallback: number): number | string {
  const raw = query.get(name);
  if (raw === null) return fallback;
  if (!/^\d+$/.test(raw)) return `${name} must be an integer`;
  const n = Number(raw);
  if (n < min || n > max) return `${name} must be between ${min} and ${max}`;
  return n;
}
