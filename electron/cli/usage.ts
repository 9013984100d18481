import type { Command } from 'commander';
import { identifierProblem } from '../../shared/ipc/identifier.js';

/**
 * Bad usage of any command line (an unknown option, a missing argument or option, a bad value, an
 * empty reason, a malformed id) is one line on stderr and exit code 2, as the README promises.
 * Commander exits 1 on its own errors unless told otherwise, and prints the whole help after them.
 */
export const USAGE_EXIT = 2;

const oneLine = (text: string) => text.trim().replace(/\s*\n\s*/g, ' ');

/** One-line usage errors for `cmd` and the subcommands created after this call. */
export function oneLineUsageErrors(cmd: Command): Command {
  return cmd.showHelpAfterError(false).configureOutput({ outputError: (str, write) => write(`${oneLine(str)} (--help for usage)\n`) });
}

/**
 * For a command parsed with `.parse()` and nothing around it: help and version exit 0, every
 * usage error exits 2 (instead of commander's 1).
 */
export function exitTwoOnUsageError(cmd: Command): Command {
  return oneLineUsageErrors(cmd).exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : USAGE_EXIT));
}

/** The problem with `value` as the identifier `what`, in one line, or null. */
export function badIdentifier(value: string, what: string): string | null {
  const problem = identifierProblem(value);
  return problem ? `${what} ${JSON.stringify(value)} is not valid: ${problem}` : null;
}
