/** MessageReader and encodeFrame: incremental parsing, limits, malformed frames. */
import { describe, expect, it } from 'vitest';
import { encodeFrame, MessageReader } from './frames.ts';
import { GrpcCode, GrpcError } from './status.ts';

const LIMITS = { maxMessageBytes: 16, maxMessages: 3 };

/** A body delivering `chunks` one read at a time. */
function body(...chunks: number[][]): ReadableStream<Uint8Array> {
  const queue = chunks.map((c) => new Uint8Array(c));
  return new ReadableStream({
    pull(controller) {
      const next = queue.shift();
      if (next) controller.enqueue(next);
      else controller.close();
    },
  });
}

async function failure(promise: Promise<unknown>): Promise<GrpcError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof GrpcError) return error;
    throw error;
  }
  throw new Error('expected a GrpcError');
}

describe('encodeFrame()', () => {
  it('prefixes the flag byte and the big-endian length', () => {
    expect([...encodeFrame(new Uint8Array([7, 8, 9]))]).toEqual([0, 0, 0, 0, 3, 7, 8, 9]);
  });
});

describe('MessageReader', () => {
  it('reassembles messages split across chunks and several messages in one chunk', async () => {
    const reader = new MessageReader(body([0, 0, 0], [0, 2, 1], [2, 0, 0, 0, 0, 1, 5, 0, 0, 0, 0, 0]), LIMITS);
    expect([...(await reader.next())!]).toEqual([1, 2]);
    expect([...(await reader.next())!]).toEqual([5]);
    expect([...(await reader.next())!]).toEqual([]);
    expect(await reader.next()).toBeUndefined();
  });

  it('returns undefined at once for an empty or absent body', async () => {
    expect(await new MessageReader(null, LIMITS).next()).toBeUndefined();
    expect(await new MessageReader(body(), LIMITS).next()).toBeUndefined();
  });

  it('refuses a message over the size limit from its header, before buffering it', async () => {
    const error = await failure(new MessageReader(body([0, 0, 0, 0, 17]), LIMITS).next());
    expect(error.code).toBe(GrpcCode.RESOURCE_EXHAUSTED);
    expect(error.message).toBe('message of 17 bytes exceeds the limit of 16 bytes');
  });

  it('refuses the message after the count limit', async () => {
    const one = [0, 0, 0, 0, 1, 9];
    const reader = new MessageReader(body(...[one, one, one, one]), LIMITS);
    for (let i = 0; i < 3; i++) await reader.next();
    const error = await failure(reader.next());
    expect(error.code).toBe(GrpcCode.RESOURCE_EXHAUSTED);
    expect(error.message).toBe('more than 3 messages on one call');
  });

  it('fails INTERNAL on a body that ends inside a header or a message', async () => {
    expect((await failure(new MessageReader(body([0, 0, 0]), LIMITS).next())).code).toBe(GrpcCode.INTERNAL);
    expect((await failure(new MessageReader(body([0, 0, 0, 0, 4, 1]), LIMITS).next())).code).toBe(GrpcCode.INTERNAL);
  });

  it('refuses compressed messages (UNIMPLEMENTED) and unknown flags (INTERNAL)', async () => {
    expect((await failure(new MessageReader(body([1, 0, 0, 0, 0]), LIMITS).next())).code).toBe(GrpcCode.UNIMPLEMENTED);
    expect((await failure(new MessageReader(body([2, 0, 0, 0, 0]), LIMITS).next())).code).toBe(GrpcCode.INTERNAL);
  });
});
