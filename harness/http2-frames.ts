/**
 * HTTP/2 frames as bytes (RFC 9113 §4.1), for clients that must send exactly the frames they are
 * told to, which node:http2 cannot: a body as one-byte DATA frames (test/support/raw-http2.ts), a
 * stream opened and reset in one write (harness/rapid-reset.ts). Header blocks are literals without
 * indexing or Huffman (RFC 7541 §6.2.2): easy to write, and no state shared between frames.
 */

export const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');

export const FrameType = {
  Data: 0x0,
  Headers: 0x1,
  RstStream: 0x3,
  Settings: 0x4,
  Ping: 0x6,
  GoAway: 0x7,
  WindowUpdate: 0x8,
} as const;
export type FrameType = (typeof FrameType)[keyof typeof FrameType];

export const END_STREAM = 0x1;
export const END_HEADERS = 0x4;
export const ACK = 0x1;
export const SETTINGS_INITIAL_WINDOW_SIZE = 0x4;
/** RST_STREAM and GOAWAY error codes (RFC 9113 §7) the clients send or look for. */
export const ErrorCode = { NoError: 0x0, Cancel: 0x8, EnhanceYourCalm: 0xb } as const;

export function frame(type: FrameType, flags: number, streamId: number, payload: Uint8Array = new Uint8Array(0)): Buffer {
  const out = Buffer.alloc(9 + payload.byteLength);
  out.writeUIntBE(payload.byteLength, 0, 3);
  out[3] = type;
  out[4] = flags;
  out.writeUInt32BE(streamId & 0x7fffffff, 5);
  out.set(payload, 9);
  return out;
}

/** RST_STREAM of `streamId` with `code`. */
export function rstStream(streamId: number, code: number): Buffer {
  const payload = Buffer.alloc(4);
  payload.writeUInt32BE(code, 0);
  return frame(FrameType.RstStream, 0, streamId, payload);
}

/** Streams `ids` opened with `headers` (HEADERS with END_STREAM) and each reset at once (RST_STREAM CANCEL): the rapid-reset pattern, as one write. */
export function openedAndReset(ids: readonly number[], headers: Array<[string, string]>): Buffer {
  const block = hpackBlock(headers);
  return Buffer.concat(ids.flatMap((id) => [frame(FrameType.Headers, END_HEADERS | END_STREAM, id, block), rstStream(id, ErrorCode.Cancel)]));
}

/** RFC 7541 §5.1 integer with an N-bit prefix. */
function hpackInteger(value: number, prefixBits: number, firstByteFlags: number): number[] {
  const max = (1 << prefixBits) - 1;
  if (value < max) return [firstByteFlags | value];
  const out = [firstByteFlags | max];
  let rest = value - max;
  while (rest >= 128) {
    out.push((rest % 128) + 128);
    rest = Math.floor(rest / 128);
  }
  out.push(rest);
  return out;
}

/** Every field as a literal without indexing, new name, no Huffman (RFC 7541 §6.2.2). */
export function hpackBlock(headers: Array<[string, string]>): Buffer {
  const bytes: number[] = [];
  for (const [name, value] of headers) {
    bytes.push(0x00);
    for (const text of [name, value]) {
      const raw = Buffer.from(text, 'latin1');
      bytes.push(...hpackInteger(raw.length, 7, 0x00), ...raw);
    }
  }
  return Buffer.from(bytes);
}

/** Splits `bytes` into whole frames, calling `onFrame` for each; returns the incomplete rest. */
export function readFrames(bytes: Buffer, onFrame: (type: number, flags: number, streamId: number, payload: Buffer) => void): Buffer<ArrayBufferLike> {
  let rest = bytes;
  while (rest.length >= 9) {
    const length = rest.readUIntBE(0, 3);
    if (rest.length < 9 + length) break;
    onFrame(rest[3]!, rest[4]!, rest.readUInt32BE(5) & 0x7fffffff, rest.subarray(9, 9 + length));
    rest = rest.subarray(9 + length);
  }
  return rest;
}
