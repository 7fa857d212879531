/**
 * A bare HTTP/2 client over a TCP socket (RFC 9113), for attacks node:http2 cannot make: it joins
 * small writes into large DATA frames, while this client sends exactly the frames it is told to
 * (e.g. a body as one-byte DATA frames). It keeps to flow control (windows, WINDOW_UPDATE),
 * acknowledges SETTINGS and PING, and reports how each stream ended; it does not decode response
 * headers (HPACK), so tests check effects through other requests.
 */
import net from 'node:net';
import {
  ACK,
  END_HEADERS,
  END_STREAM,
  ErrorCode,
  frame,
  FrameType,
  hpackBlock,
  openedAndReset,
  PREFACE,
  readFrames,
  rstStream,
  SETTINGS_INITIAL_WINDOW_SIZE,
} from '../../harness/http2-frames.ts';

const DEFAULT_WINDOW = 65_535;

/** The request head of a gRPC `Increment` call to the host on `port`. */
export function grpcIncrementHead(port: number): Array<[string, string]> {
  return [
    [':method', 'POST'],
    [':scheme', 'http'],
    [':path', '/counter.v1.CounterService/Increment'],
    [':authority', `127.0.0.1:${port}`],
    ['content-type', 'application/grpc'],
    ['te', 'trailers'],
  ];
}

export interface StreamEnd {
  /** RST_STREAM error code, when the server reset the stream. */
  rstCode?: number;
  /** The connection closed before the stream ended (a test then fails on it rather than waiting). */
  closed?: true;
}

export class RawHttp2Client {
  readonly #socket: net.Socket;
  #received: Buffer<ArrayBufferLike> = Buffer.alloc(0);
  #connectionWindow = DEFAULT_WINDOW;
  #initialStreamWindow = DEFAULT_WINDOW;
  readonly #streamWindows = new Map<number, number>();
  readonly #ends = new Map<number, { promise: Promise<StreamEnd>; resolve: (end: StreamEnd) => void }>();
  readonly #reset = new Set<number>();
  #windowWaiters: Array<() => void> = [];
  #closed = false;
  goaway = false;

  private constructor(socket: net.Socket) {
    this.#socket = socket;
    socket.on('data', (chunk: Buffer) => this.#onData(chunk));
    socket.on('close', () => {
      this.#closed = true;
      for (const end of this.#ends.values()) end.resolve({ closed: true });
      this.#wakeWindowWaiters();
    });
    socket.on('error', () => undefined);
  }

  /** `localAddress`: the loopback address to connect from, to be another client than 127.0.0.1. */
  static connect(port: number, localAddress?: string): Promise<RawHttp2Client> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ port, host: '127.0.0.1', ...(localAddress ? { localAddress } : {}) }, () => {
        socket.off('error', reject);
        socket.write(Buffer.concat([PREFACE, frame(FrameType.Settings, 0, 0)]));
        resolve(new RawHttp2Client(socket));
      });
      socket.once('error', reject);
    });
  }

  /** Opens a stream with these headers (pseudo-headers first). */
  headers(streamId: number, headers: Array<[string, string]>, endStream = false): void {
    this.#streamWindows.set(streamId, this.#initialStreamWindow);
    this.#endOf(streamId);
    this.#socket.write(frame(FrameType.Headers, END_HEADERS | (endStream ? END_STREAM : 0), streamId, hpackBlock(headers)));
  }

  /** Sends `body` as DATA frames of `frameSize` bytes each, waiting for window as flow control requires; the last one ends the stream. */
  async data(streamId: number, body: Uint8Array, frameSize: number): Promise<void> {
    let at = 0;
    while (at < body.byteLength) {
      if (this.#closed) throw new Error('the server closed the connection');
      if (this.#reset.has(streamId)) return; // the server reset the stream: nothing more to send
      const window = Math.min(this.#connectionWindow, this.#streamWindows.get(streamId) ?? 0);
      if (window < frameSize && window < body.byteLength - at) {
        await new Promise<void>((resolve) => this.#windowWaiters.push(resolve));
        continue;
      }
      const frames: Buffer[] = [];
      let sent = 0;
      while (at < body.byteLength && sent + Math.min(frameSize, body.byteLength - at) <= window && frames.length < 10_000) {
        const size = Math.min(frameSize, body.byteLength - at);
        const last = at + size === body.byteLength;
        frames.push(frame(FrameType.Data, last ? END_STREAM : 0, streamId, body.subarray(at, at + size)));
        at += size;
        sent += size;
      }
      this.#connectionWindow -= sent;
      this.#streamWindows.set(streamId, (this.#streamWindows.get(streamId) ?? 0) - sent);
      if (!this.#socket.write(Buffer.concat(frames))) await new Promise((resolve) => this.#socket.once('drain', resolve));
    }
  }

  /** Resets the stream (RST_STREAM, CANCEL unless told), as a client that no longer wants its answer. */
  reset(streamId: number, code: number = ErrorCode.Cancel): void {
    this.#socket.write(rstStream(streamId, code));
  }

  /** Opens streams `ids` with `headers` (END_STREAM) and resets each at once, all in one write: the rapid-reset pattern. */
  openAndReset(ids: readonly number[], headers: Array<[string, string]>): void {
    this.#socket.write(openedAndReset(ids, headers));
  }

  /** Resolves when the server ends the stream (END_STREAM) or resets it. */
  ended(streamId: number): Promise<StreamEnd> {
    return this.#endOf(streamId).promise;
  }

  close(): void {
    this.#socket.destroy();
  }

  #endOf(streamId: number) {
    let entry = this.#ends.get(streamId);
    if (!entry) {
      let resolve!: (end: StreamEnd) => void;
      const promise = new Promise<StreamEnd>((r) => (resolve = r));
      entry = { promise, resolve };
      this.#ends.set(streamId, entry);
    }
    return entry;
  }

  #onData(chunk: Buffer): void {
    this.#received = readFrames(Buffer.concat([this.#received, chunk]), (type, flags, streamId, payload) => this.#onFrame(type, flags, streamId, payload));
  }

  #onFrame(type: number, flags: number, streamId: number, payload: Buffer): void {
    switch (type) {
      case FrameType.Settings:
        if (flags & ACK) return;
        for (let i = 0; i + 6 <= payload.length; i += 6) {
          if (payload.readUInt16BE(i) !== SETTINGS_INITIAL_WINDOW_SIZE) continue;
          const next = payload.readUInt32BE(i + 2);
          const delta = next - this.#initialStreamWindow;
          this.#initialStreamWindow = next;
          for (const [id, window] of this.#streamWindows) this.#streamWindows.set(id, window + delta);
        }
        this.#socket.write(frame(FrameType.Settings, ACK, 0));
        this.#wakeWindowWaiters();
        return;
      case FrameType.WindowUpdate: {
        const increment = payload.readUInt32BE(0) & 0x7fffffff;
        if (streamId === 0) this.#connectionWindow += increment;
        else this.#streamWindows.set(streamId, (this.#streamWindows.get(streamId) ?? 0) + increment);
        this.#wakeWindowWaiters();
        return;
      }
      case FrameType.Ping:
        if (!(flags & ACK)) this.#socket.write(frame(FrameType.Ping, ACK, 0, payload));
        return;
      case FrameType.GoAway:
        this.goaway = true;
        return;
      case FrameType.RstStream:
        this.#reset.add(streamId);
        this.#endOf(streamId).resolve({ rstCode: payload.readUInt32BE(0) });
        this.#wakeWindowWaiters();
        return;
      case FrameType.Headers:
      case FrameType.Data:
        if (flags & END_STREAM) this.#endOf(streamId).resolve({});
        return;
    }
  }

  #wakeWindowWaiters(): void {
    for (const wake of this.#windowWaiters.splice(0)) wake();
  }
}
