import { existsSync, readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { writePrivateFile } from './data-dir.js';

/**
 * Who acts: the OS account running the console plus a display name chosen at first run. Every
 * audit entry names both, so "alice (Alice Nguyen, Support)" cannot be confused with a colleague.
 */
export interface Operator {
  account: string;
  displayName: string | null;
}

export class OperatorStore {
  private readonly file: string;
  constructor(dataDir: string) {
    this.file = join(dataDir, 'operator.json');
  }

  get(): Operator {
    let displayName: string | null = null;
    if (existsSync(this.file)) {
      try {
        displayName = (JSON.parse(readFileSync(this.file, 'utf8')) as { displayName?: string }).displayName ?? null;
      } catch {
        displayName = null;
      }
    }
    return { account: osAccount(), displayName };
  }

  setDisplayName(name: string): Operator {
    const clean = name.trim().replace(/\s+/g, ' ');
    if (clean.length < 2 || clean.length > 80) throw new RangeError('A display name has 2 to 80 characters.');
    writePrivateFile(this.file, `${JSON.stringify({ displayName: clean })}\n`);
    return this.get();
  }
}

function osAccount(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? process.env.USERNAME ?? 'unknown';
  }
}

/** A signed-in person as the audit log names them: "alice (Alice Nguyen)". */
export function personAsOperator(caller: { userId: string; userName?: string; displayName: string } | undefined): Operator | null {
  return caller ? { account: caller.userName ?? caller.userId, displayName: caller.displayName } : null;
}

export function describeOperator(o: Operator): string {
  return o.displayName ? `${o.account} (${o.displayName})` : o.account;
}
