/**
 * gRPC length-prefixed messages (gRPC over HTTP/2 spec): 1 byte compressed flag, 4 bytes
 * big-endian length, then the message. `MessageReader` parses them incrementally from a streamed
 * request body, enforcing the size and count limits before buffering a message.
 */
import { GrpcCode, GrpcError } from './status.ts';

const HEADER_BYTES = 5;

export interface ReaderLimits {
  /** Largest message accepted, in bytes. */
  maxMessageBytes: number;
  /** Most messages accepted on one call. */
  maxMessages: number;
}

export function encodeFrame(message: Uint8Array): Uint8Array {
  const frame = new Uint8Array(HEADER_BYTES + message.byteLength);
  new DataView(frame.buffer).setUint32(1, message.byteLength);
  frame.set(message, HEADER_BYTES);
  return frame;
}

export class MessageReader {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #limits: ReaderLimits;
  #chunks: Uint8Array[] = [];
  #buffered = 0;
  #count = 0;
  #ended = false;

  constructor(body: ReadableStream<Uint8Array> | null, limits: ReaderLimits) {
    this.#reader = (body ?? new ReadableStream<Uint8Array>({ start: (c) => c.close() })).getReader();
    this.#limits = limits;
  }

  /** The next message, or undefined when the client half-closed. Throws GrpcError on a bad frame or a limit. */
  async next(): Promise<Uint8Array | undefined> {
    if (!(await this.#fill(HEADER_BYTES))) {
      if (this.#buffered === 0) return undefined;
      throw new GrpcError(GrpcCode.INTERNAL, 'malformed gRPC frame: the request ended inside a message header');
    }
    const header = this.#peek(HEADER_BYTES);
    const flag = header[0]!;
    const length = new DataView(header.buffer, header.byteOffset, HEADER_BYTES).getUint32(1);
    if (flag !== 0) {
      throw new GrpcError(
        flag === 1 ? GrpcCode.UNIMPLEMENTED : GrpcCode.INTERNAL,
        flag === 1 ? 'compressed messages are not supported (grpc-encoding identity only)' : 'malformed gRPC frame: invalid compressed flag',
      );
    }
    if (length > this.#limits.maxMessageBytes) {
      throw new GrpcError(GrpcCode.RESOURCE_EXHAUSTED, `message of ${length} bytes exceeds the limit of ${this.#limits.maxMessageBytes} bytes`);
    }
    if (++this.#count > this.#limits.maxMessages) {
      throw new GrpcError(GrpcCode.RESOURCE_EXHAUSTED, `more than ${this.#limits.maxMessages} messages on one call`);
    }
    if (!(await this.#fill(HEADER_BYTES + length))) {
      throw new GrpcError(GrpcCode.INTERNAL, 'malformed gRPC frame: the request ended inside a message');
    }
    return this.#take(HEADER_BYTES + length).subarray(HEADER_BYTES);
  }

  /** Stops reading the request body (the call ended early). */
  cancel(): void {
    void this.#reader.cancel().catch(() => undefined);
  }

  /** Reads until `bytes` are buffered; false when the body ended first. */
  async #fill(bytes: number): Promise<boolean> {
    while (this.#buffered < bytes) {
      if (this.#ended) return false;
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        result = await this.#reader.read();
      } catch (error) {
        throw new GrpcError(GrpcCode.CANCELLED, 'the request body could not be read', { cause: error });
      }
      if (result.done) {
        this.#ended = true;
        continue;
      }
      this.#chunks.push(result.value);
      this.#buffered += result.value.byteLength;
    }
    return true;
  }

  #peek(bytes: number): Uint8Array {
    this.#coalesce();
    return this.#chunks[0]!.subarray(0, bytes);
  }

  #take(bytes: number): Uint8Array {
    this.#coalesce();
    const all = this.#chunks[0]!;
    const taken = all.subarray(0, bytes);
    const rest = all.subarray(bytes);
    this.#chunks = rest.byteLength > 0 ? [rest] : [];
    this.#buffered -= bytes;
    return taken;
  }

  #coalesce(): void {
    if (this.#chunks.length <= 1) return;
    const joined = new Uint8Array(this.#buffered);
    let offset = 0;
    for (const chunk of this.#chunks) {
      joined.set(chunk, offset);
      offset += chunk.byteLength;
    }
    this.#chunks = [joined];
  }
}
