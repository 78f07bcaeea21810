/**
 * A minimal HTTP/1.1 client for load generation: one keep-alive connection, one request at a time,
 * JSON in and out, answers framed by content-length (or none: 204). The load benchmark runs on the
 * same two cores as the server it measures, so its client should take as little of them as it can:
 * node:http's client costs several times this per request. Not a general client: no chunked
 * answers, no redirects, no TLS. Nothing here is a test.
 */
import { connect, type Socket } from 'node:net';

export interface JsonAnswer {
  status: number;
  json: any;
}

const HEAD_END = Buffer.from('\r\n\r\n');

export class Connection {
  private socket!: Socket;
  private open = false;
  private buffer: Buffer = Buffer.alloc(0);
  private waiting: { resolve: (a: JsonAnswer) => void; reject: (e: Error) => void } | null = null;

  constructor(
    private readonly port: number,
    private readonly host = '127.0.0.1',
  ) {
    this.connect();
  }

  /** A new socket; also when the server has closed an idle one (its keep-alive timeout). */
  private connect(): void {
    const socket = connect({ port: this.port, host: this.host, noDelay: true });
    this.socket = socket;
    this.open = true;
    this.buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
      this.answer();
    });
    const fail = (e: Error): void => {
      if (this.socket !== socket) return;
      this.open = false;
      const w = this.waiting;
      this.waiting = null;
      w?.reject(e);
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('connection closed')));
  }

  /** One request; the previous one must have been answered. */
  send(method: string, path: string, body?: unknown): Promise<JsonAnswer> {
    if (this.waiting) throw new Error('one request at a time on a connection');
    const data = body === undefined ? '' : JSON.stringify(body);
    const head =
      `${method} ${path} HTTP/1.1\r\nhost: localhost\r\n` +
      (body === undefined ? '' : `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(data)}\r\n`) +
      '\r\n';
    if (!this.open) this.connect();
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.socket.write(head + data);
    });
  }

  private answer(): void {
    if (!this.waiting) return;
    const end = this.buffer.indexOf(HEAD_END);
    if (end < 0) return;
    const head = this.buffer.toString('latin1', 0, end);
    const status = Number(head.slice(9, 12));
    const m = /\r\ncontent-length: *(\d+)/i.exec(head);
    if (!m && /\r\ntransfer-encoding:/i.test(head)) {
      this.waiting.reject(new Error('chunked answers are not read by this client'));
      this.waiting = null;
      return;
    }
    const length = m ? Number(m[1]) : 0;
    if (this.buffer.length < end + 4 + length) return;
    const text = this.buffer.toString('utf8', end + 4, end + 4 + length);
    this.buffer = this.buffer.subarray(end + 4 + length);
    const w = this.waiting;
    this.waiting = null;
    try {
      w.resolve({ status, json: text ? JSON.parse(text) : null });
    } catch (e) {
      w.reject(e instanceof Error ? e : new Error(String(e)));
    }
  }

  close(): void {
    this.open = false;
    this.socket.destroy();
  }
}
