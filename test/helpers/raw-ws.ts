import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';

/**
 * WebSocket by hand: a real upgrade (session cookie, Host, Origin), then frames written byte by
 * byte, so a test can send what no well-behaved client library would (too long, unmasked, bad
 * UTF-8, unknown opcodes, fragments out of order, a connection cut mid-frame), and read what the
 * server answers, close frame included.
 */
export interface RawConnection {
  socket: Socket;
  /** Frames the server sent, in order. */
  frames: { opcode: number; payload: Buffer }[];
  /** Resolves when the server sent a close frame (its code and reason) or the connection ended without one. */
  closed: Promise<{ code: number | null; reason: string }>;
  /** Resolves with the next text frame holding an IPC answer. */
  nextAnswer(): Promise<{ id: unknown; result: { ok: boolean; error?: { code: string; message: string } } }>;
}

export function rawUpgrade(port: number, headers: { cookie: string; origin: string }): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => {}); // a reset after the server closed is expected in these tests
    socket.once('connect', () => {
      socket.write(
        [
          'GET /ipc HTTP/1.1',
          `Host: 127.0.0.1:${port}`,
          `Origin: ${headers.origin}`,
          `Cookie: ${headers.cookie}`,
          'Upgrade: websocket',
          'Connection: Upgrade',
          `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
          'Sec-WebSocket-Version: 13',
          '',
          '',
        ].join('\r\n'),
      );
    });
    let buffer = Buffer.alloc(0);
    let upgraded = false;
    const frames: RawConnection['frames'] = [];
    const waiters: ((f: { opcode: number; payload: Buffer }) => void)[] = [];
    let onClose: (v: { code: number | null; reason: string }) => void;
    const closed = new Promise<{ code: number | null; reason: string }>((r) => (onClose = r));
    socket.on('close', () => onClose({ code: null, reason: '' }));
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (!upgraded) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buffer.subarray(0, end).toString();
        if (!head.startsWith('HTTP/1.1 101')) return reject(new Error(`upgrade refused: ${head.split('\r\n')[0]}`));
        upgraded = true;
        buffer = buffer.subarray(end + 4);
        resolve(connection);
      }
      for (;;) {
        if (buffer.length < 2) return;
        const opcode = buffer[0]! & 0x0f;
        let length = buffer[1]! & 0x7f;
        let offset = 2;
        if (length === 126) {
          if (buffer.length < 4) return;
          length = buffer.readUInt16BE(2);
          offset = 4;
        } else if (length === 127) {
          if (buffer.length < 10) return;
          length = Number(buffer.readBigUInt64BE(2));
          offset = 10;
        }
        if (buffer.length < offset + length) return;
        const payload = buffer.subarray(offset, offset + length);
        buffer = buffer.subarray(offset + length);
        const frame = { opcode, payload };
        frames.push(frame);
        if (opcode === 0x8) onClose({ code: payload.length >= 2 ? payload.readUInt16BE(0) : null, reason: payload.subarray(2).toString() });
        if (opcode === 0x1) waiters.shift()?.(frame);
      }
    });
    const connection: RawConnection = {
      socket,
      frames,
      closed,
      nextAnswer: () =>
        new Promise((r) => {
          waiters.push((f) => r(JSON.parse(f.payload.toString()) as Awaited<ReturnType<RawConnection['nextAnswer']>>));
        }),
    };
  });
}

/** One frame as a client would write it: masked unless told otherwise, FIN set unless told otherwise. */
export function frame(
  opcode: number,
  payload: Buffer | string,
  opts: { mask?: boolean; fin?: boolean; declaredLength?: number } = {},
): Buffer {
  const data = typeof payload === 'string' ? Buffer.from(payload) : payload;
  const length = opts.declaredLength ?? data.length;
  const mask = opts.mask ?? true;
  const first = ((opts.fin ?? true) ? 0x80 : 0) | opcode;
  let head: Buffer;
  if (length < 126) head = Buffer.from([first, (mask ? 0x80 : 0) | length]);
  else if (length < 65536) {
    head = Buffer.alloc(4);
    head[0] = first;
    head[1] = (mask ? 0x80 : 0) | 126;
    head.writeUInt16BE(length, 2);
  } else {
    head = Buffer.alloc(10);
    head[0] = first;
    head[1] = (mask ? 0x80 : 0) | 127;
    head.writeBigUInt64BE(BigInt(length), 2);
  }
  if (!mask) return Buffer.concat([head, data]);
  const key = randomBytes(4);
  const masked = Buffer.from(data);
  for (let i = 0; i < masked.length; i++) masked[i]! ^= key[i % 4]!;
  return Buffer.concat([head, key, masked]);
}
