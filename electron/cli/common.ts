import { InvalidArgumentError, type Command } from 'commander';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CoreError } from '../core/errors.js';
import { startCore, type Core } from '../core/console-core.js';
import { checkReason } from '../core/consents/actions.js';
import { dataDirFlag, ensureDataDir, resolveDataDir } from '../core/data-dir.js';
import { createFileLogger } from '../core/log.js';
import { badIdentifier } from './usage.js';

/** What the command line's commands share: exit codes, tables, argument checks, the core for one command. */
export const EXIT = { ok: 0, error: 1, usage: 2, alreadyInactive: 3, offline: 4, unauthorized: 5, auditBroken: 6 } as const;

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const version = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;

export class Exit extends Error {
  constructor(
    readonly code: number,
    message?: string,
  ) {
    super(message ?? '');
  }
}

export function exitFor(error: unknown): number {
  if (error instanceof CoreError)
    return error.code === 'INVALID_INPUT'
      ? EXIT.usage
      : error.code === 'OFFLINE'
        ? EXIT.offline
        : error.code === 'UNAUTHORIZED' || error.code === 'FORBIDDEN'
          ? EXIT.unauthorized
          : EXIT.error;
  return EXIT.error;
}

/** A table for people: aligned columns, long cells cut with an ellipsis. */
export function table<R extends object>(rows: readonly R[], columns: string[]): string {
  const text = (v: unknown) => (v === null || v === undefined ? '—' : String(v));
  const cellOf = (r: R, c: string) => text((r as Record<string, unknown>)[c]);
  const widths = columns.map((c) => Math.min(48, Math.max(c.length, ...rows.map((r) => cellOf(r, c).length))));
  const cut = (s: string, w: number) => (s.length > w ? `${s.slice(0, w - 1)}…` : s.padEnd(w));
  return [
    columns.map((c, i) => cut(c, widths[i]!)).join('  '),
    ...rows.map((r) => columns.map((c, i) => cut(cellOf(r, c), widths[i]!)).join('  ')),
  ].join('\n');
}

/** Refuses (exit 2) an argument that is not an identifier, before anything is opened or called. */
export function identifier(value: string, what: string): string {
  const problem = badIdentifier(value, what);
  if (problem) throw new Exit(EXIT.usage, `${problem}.`);
  return value;
}

/** The reason an action records, checked as the console checks it; a bad one is bad usage (exit 2). */
export function reasonOf(reason: string): string {
  try {
    return checkReason(reason);
  } catch (error) {
    throw new Exit(EXIT.usage, `--reason: ${(error as Error).message}`);
  }
}

export function positiveInt(max: number) {
  return (value: string) => {
    if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > max)
      throw new InvalidArgumentError(`expected an integer from 1 to ${max}`);
    return Number(value);
  };
}

export async function withCore<T>(program: Command, run: (core: Core) => Promise<T>): Promise<T> {
  const { dataDir, profile } = program.opts<{ dataDir?: string; profile?: string }>();
  const dir = ensureDataDir(resolveDataDir(dataDir ?? dataDirFlag(process.argv)));
  const core = await startCore({
    dataDir: dir,
    host: 'cli',
    // A command reads once: SQL answers it sooner than a read index of the whole cache is built.
    readIndexes: false,
    appVersion: version,
    log: createFileLogger(dir),
    ...(profile ? { profileId: profile } : {}),
    ...(process.env.CDR_CONSOLE_CLIENT_SECRET ? { clientSecret: process.env.CDR_CONSOLE_CLIENT_SECRET } : {}),
  });
  try {
    return await run(core);
  } finally {
    await core.close();
  }
}

export function dataDirOf(program: Command): string {
  return ensureDataDir(resolveDataDir(program.opts<{ dataDir?: string }>().dataDir ?? dataDirFlag(process.argv)));
}

export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8').trim();
}
