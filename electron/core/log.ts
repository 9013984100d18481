import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The console's log: one line per entry in `<data dir>/logs/console.log`. Callers pass messages
 * that hold no secret and no CDR data; `redact` is a second line of defence for bearer tokens,
 * client secrets and e-mail addresses that slip into error text.
 */
export interface Logger {
  info(message: string): void;
  error(message: string, error?: unknown): void;
}

export function redact(text: string): string {
  return text
    .replace(/(bearer\s+)[A-Za-z0-9._~+/=-]+/gi, '$1[redacted]')
    .replace(/(client_secret=)[^&\s]+/gi, '$1[redacted]')
    .replace(/eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g, '[jwt redacted]')
    .replace(/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g, '[email redacted]');
}

export function createFileLogger(dataDir: string, echo?: (line: string) => void): Logger {
  const dir = join(dataDir, 'logs');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, 'console.log');
  const write = (level: string, message: string) => {
    const line = redact(`${new Date().toISOString()} ${level} ${message}`);
    appendFileSync(file, `${line}\n`, { mode: 0o600 });
    echo?.(line);
  };
  return {
    info: (message) => write('INFO', message),
    error: (message, error) =>
      write('ERROR', error ? `${message}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}` : message),
  };
}
