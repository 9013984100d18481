import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server on 127.0.0.1 (the `smtp-server` package), no TLS or sign-in asked, that keeps
 * each message as received (raw, headers and MIME parts as sent).
 */
export async function startSmtpSink(): Promise<{ port: number; mails: string[]; close(): Promise<void> }> {
  const mails: string[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    onData(stream, _session, callback) {
      let raw = '';
      stream.on('data', (d: Buffer) => (raw += d.toString()));
      stream.on('end', () => {
        mails.push(raw);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.server.address() as AddressInfo).port,
    mails,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
