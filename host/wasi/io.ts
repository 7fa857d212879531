/**
 * wasi:io (error, poll, streams) for the Node host.
 *
 * Every wait is a Promise: the imports `poll`, `pollable.block` and the `blocking-*` stream
 * methods are transpiled as JSPI suspending imports, so a guest that waits suspends its own
 * instance while the Node event loop keeps serving everyone else.
 */

/** wasi:io/error#error: an opaque error with a debug string. */
export class IoError {
  readonly #message: string;
  constructor(message: string) {
    this.#message = message;
  }
  toDebugString(): string {
    return this.#message;
  }
}

/** The payload jco expects a throwing `result<_, stream-error>` method to carry. */
export type StreamError = { tag: 'closed' } | { tag: 'last-operation-failed'; val: IoError };

export const streamClosed = (): { payload: StreamError } => ({ payload: { tag: 'closed' } });
export const streamFailed = (message: string): { payload: StreamError } => ({
  payload: { tag: 'last-operation-failed', val: new IoError(message) },
});

/** wasi:io/poll#pollable backed by a readiness check and a promise that settles when ready. */
export class Pollable {
  readonly #isReady: () => boolean;
  readonly #whenReady: () => Promise<void>;
  constructor(isReady: () => boolean, whenReady: () => Promise<void>) {
    this.#isReady = isReady;
    this.#whenReady = whenReady;
  }
  static resolved(): Pollable {
    return new Pollable(
      () => true,
      () => Promise.resolve(),
    );
  }
  ready(): boolean {
    return this.#isReady();
  }
  block(): Promise<void> | undefined {
    return this.#isReady() ? undefined : this.#whenReady();
  }
  /** @internal used by `poll` */
  whenReady(): Promise<void> {
    return this.#isReady() ? Promise.resolve() : this.#whenReady();
  }
}

/** wasi:io/poll#poll: resolves with the indices of the pollables that are ready (at least one). */
export function poll(pollables: Pollable[]): Uint32Array | Promise<Uint32Array> {
  const ready = readyIndices(pollables);
  if (ready.length > 0) return ready;
  return Promise.race(pollables.map((p) => p.whenReady())).then(() => readyIndices(pollables));
}

function readyIndices(pollables: Pollable[]): Uint32Array {
  const out: number[] = [];
  pollables.forEach((p, i) => {
    if (p.ready()) out.push(i);
  });
  return Uint32Array.from(out);
}

/** Chunks up to this size are copied into a block the queue owns rather than kept as they came. */
const SMALL_CHUNK_BYTES = 1_024;
/** The size of such a block. */
const BLOCK_BYTES = 16_384;

/**
 * A push-fed byte queue that an InputStream reads from.
 *
 * A body that arrives in tiny pieces (one-byte HTTP/1.1 chunks, one-byte HTTP/2 DATA frames) would
 * otherwise be held as one object per piece, each with its own backing store (Node copies every
 * piece the HTTP parser hands out): hundreds of bytes of heap and malloc per byte of body, and a
 * peak that lasts until the next full collection. Small pieces are copied into 16 KiB blocks as
 * they arrive, so the queue holds about one object per 16 KiB and the pieces die young.
 */
export class ByteQueue {
  #chunks: Uint8Array[] = [];
  #ended = false;
  #error: string | undefined;
  #waiters: Array<() => void> = [];
  #wakeScheduled = false;
  #drainWaiters: Array<() => void> = [];
  #bytes = 0;
  /** The block small chunks are copied into, and how much of it is filled (never rewritten once handed out). */
  #block: Uint8Array | undefined;
  #blockUsed = 0;

  push(chunk: Uint8Array): void {
    if (chunk.byteLength > 0) {
      if (chunk.byteLength <= SMALL_CHUNK_BYTES) this.#append(chunk);
      else this.#chunks.push(chunk);
      this.#bytes += chunk.byteLength;
    }
    this.#wake();
  }
  /** Copies a small chunk into the current block, extending the queue's last view when it ends where the copy starts. */
  #append(chunk: Uint8Array): void {
    if (this.#block === undefined || this.#blockUsed + chunk.byteLength > this.#block.byteLength) {
      this.#block = new Uint8Array(BLOCK_BYTES);
      this.#blockUsed = 0;
    }
    const block = this.#block;
    const start = this.#blockUsed;
    block.set(chunk, start);
    this.#blockUsed += chunk.byteLength;
    const last = this.#chunks.at(-1);
    if (last !== undefined && last.buffer === block.buffer && last.byteOffset + last.byteLength === start) {
      this.#chunks[this.#chunks.length - 1] = block.subarray(last.byteOffset, this.#blockUsed);
    } else {
      this.#chunks.push(block.subarray(start, this.#blockUsed));
    }
  }
  end(): void {
    this.#ended = true;
    this.#wake();
  }
  fail(message: string): void {
    this.#error = message;
    this.#wake();
  }
  get buffered(): number {
    return this.#bytes;
  }
  /** Resolves once a reader has taken everything buffered (used to resume a paused source). */
  whenDrained(): Promise<void> {
    if (this.#bytes === 0) return Promise.resolve();
    return new Promise((resolve) => this.#drainWaiters.push(resolve));
  }
  /** True when a read would not wait: data, end or error. */
  readable(): boolean {
    return this.#chunks.length > 0 || this.#ended || this.#error !== undefined;
  }
  whenReadable(): Promise<void> {
    if (this.readable()) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }
  /**
   * Takes up to `max` bytes without waiting, joined from as many queued chunks as they fill: a body
   * that arrives in tiny pieces (one-byte chunks or HTTP/2 DATA frames) costs the guest one read per
   * `max` bytes, not one per piece. Throws the stream error at end or failure.
   */
  take(max: number): Uint8Array {
    const first = this.#chunks[0];
    if (first) {
      const taken = first.byteLength >= max || this.#chunks.length === 1 ? this.#takeFirst(max) : this.#takeJoined(max);
      this.#bytes -= taken.byteLength;
      if (this.#bytes === 0) for (const w of this.#drainWaiters.splice(0)) w();
      return taken;
    }
    if (this.#error !== undefined) throw streamFailed(this.#error);
    if (this.#ended) throw streamClosed();
    return new Uint8Array(0);
  }
  /** The first chunk, or its first `max` bytes (no copy). */
  #takeFirst(max: number): Uint8Array {
    const first = this.#chunks[0]!;
    if (first.byteLength <= max) return this.#chunks.shift()!;
    this.#chunks[0] = first.subarray(max);
    return first.subarray(0, max);
  }
  /** `max` bytes (or all there are) copied from the chunks at the head of the queue. */
  #takeJoined(max: number): Uint8Array {
    const out = new Uint8Array(Math.min(max, this.#bytes));
    let filled = 0;
    let used = 0;
    while (filled < out.byteLength) {
      const chunk = this.#chunks[used]!;
      const part = Math.min(chunk.byteLength, out.byteLength - filled);
      out.set(part === chunk.byteLength ? chunk : chunk.subarray(0, part), filled);
      filled += part;
      if (part === chunk.byteLength) used++;
      else this.#chunks[used] = chunk.subarray(part);
    }
    this.#chunks.splice(0, used);
    return out;
  }
  /**
   * Wakes waiting readers once the current I/O callbacks are done (setImmediate), not at once: an
   * HTTP/2 DATA frame or body chunk arrives as one callback each, with microtasks in between, so a
   * reader woken at once would read each one-byte frame of a socket read by itself. Deferred, it
   * reads everything that socket read brought in one go.
   */
  #wake(): void {
    if (this.#waiters.length === 0 || this.#wakeScheduled) return;
    this.#wakeScheduled = true;
    setImmediate(() => {
      this.#wakeScheduled = false;
      const waiters = this.#waiters;
      this.#waiters = [];
      for (const w of waiters) w();
    });
  }
}

/** wasi:io/streams#input-stream over a ByteQueue. */
export class InputStream {
  readonly #queue: ByteQueue;
  constructor(queue: ByteQueue) {
    this.#queue = queue;
  }
  read(len: bigint): Uint8Array {
    return this.#queue.take(clampLen(len));
  }
  blockingRead(len: bigint): Uint8Array | Promise<Uint8Array> {
    if (this.#queue.readable()) return this.read(len);
    return this.#queue.whenReadable().then(() => this.read(len));
  }
  skip(len: bigint): bigint {
    return BigInt(this.read(len).byteLength);
  }
  blockingSkip(len: bigint): bigint | Promise<bigint> {
    const r = this.blockingRead(len);
    return r instanceof Promise ? r.then((b) => BigInt(b.byteLength)) : BigInt(r.byteLength);
  }
  subscribe(): Pollable {
    return new Pollable(
      () => this.#queue.readable(),
      () => this.#queue.whenReadable(),
    );
  }
}

function clampLen(len: bigint): number {
  return Number(len > 1_048_576n ? 1_048_576n : len);
}

/** Where an OutputStream's bytes go. */
export interface ByteSink {
  /** Writes bytes; returns false when the sink wants the writer to wait (backpressure). */
  write(bytes: Uint8Array): boolean;
  /** Resolves when the sink accepts more bytes (or is closed). */
  whenWritable(): Promise<void>;
  /** True when writing is no longer possible (peer gone, stream finished). */
  readonly closed: boolean;
  /** True while the sink asks writers to wait. */
  readonly congested: boolean;
}

/** How many bytes `check-write` permits at once when the sink is not congested. */
const WRITE_BUDGET = 65_536n;

/** wasi:io/streams#output-stream over a ByteSink. */
export class OutputStream {
  readonly #sink: ByteSink;
  constructor(sink: ByteSink) {
    this.#sink = sink;
  }
  checkWrite(): bigint {
    if (this.#sink.closed) throw streamClosed();
    return this.#sink.congested ? 0n : WRITE_BUDGET;
  }
  write(contents: Uint8Array): void {
    if (this.#sink.closed) throw streamClosed();
    // Copy: the view points into guest memory, which the guest reuses after the call returns.
    this.#sink.write(contents.slice());
  }
  blockingWriteAndFlush(contents: Uint8Array): void | Promise<void> {
    this.write(contents);
    return this.blockingFlush();
  }
  flush(): void {
    if (this.#sink.closed) throw streamClosed();
  }
  blockingFlush(): void | Promise<void> {
    if (this.#sink.closed) throw streamClosed();
    if (!this.#sink.congested) return;
    return this.#sink.whenWritable().then(() => {
      if (this.#sink.closed) throw streamClosed();
    });
  }
  subscribe(): Pollable {
    return new Pollable(
      () => this.#sink.closed || !this.#sink.congested,
      () => this.#sink.whenWritable(),
    );
  }
  writeZeroes(len: bigint): void {
    this.write(new Uint8Array(clampLen(len)));
  }
  blockingWriteZeroesAndFlush(len: bigint): void | Promise<void> {
    return this.blockingWriteAndFlush(new Uint8Array(clampLen(len)));
  }
  splice(src: InputStream, len: bigint): bigint {
    const bytes = src.read(len);
    this.write(bytes);
    return BigInt(bytes.byteLength);
  }
  blockingSplice(src: InputStream, len: bigint): Promise<bigint> {
    return Promise.resolve(src.blockingRead(len)).then(async (bytes) => {
      await this.blockingWriteAndFlush(bytes);
      return BigInt(bytes.byteLength);
    });
  }
}

/** A sink writing synchronously to a file descriptor's Node stream (stdout, stderr). */
export function processSink(stream: NodeJS.WriteStream): ByteSink {
  return {
    write: (bytes) => stream.write(bytes),
    whenWritable: () => Promise.resolve(),
    closed: false,
    congested: false,
  };
}

/** The wasi:io import objects. */
export const ioImports = {
  'wasi:io/error': { Error: IoError },
  'wasi:io/poll': { Pollable, poll },
  'wasi:io/streams': { InputStream, OutputStream },
};
