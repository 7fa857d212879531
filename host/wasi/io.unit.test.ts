/**
 * ByteQueue reads: a read of N bytes returns up to N bytes joined from every queued chunk, so a
 * body that arrives in tiny pieces costs one guest read per N bytes, not one per piece.
 */
import { describe, expect, it } from 'vitest';
import { ByteQueue, InputStream } from './io.ts';

const bytes = (...values: number[]) => Uint8Array.from(values);

function queueOf(chunks: Uint8Array[]): ByteQueue {
  const queue = new ByteQueue();
  for (const chunk of chunks) queue.push(chunk);
  return queue;
}

describe('ByteQueue.take', () => {
  it('joins every queued chunk into one read', () => {
    const queue = queueOf([bytes(1), bytes(2), bytes(3, 4), bytes(5)]);
    expect([...queue.take(100)]).toEqual([1, 2, 3, 4, 5]);
    expect(queue.buffered).toBe(0);
  });

  it('stops at the requested length, splitting a chunk and keeping its rest for the next read', () => {
    const queue = queueOf([bytes(1, 2), bytes(3, 4, 5), bytes(6)]);
    expect([...queue.take(4)]).toEqual([1, 2, 3, 4]);
    expect(queue.buffered).toBe(2);
    expect([...queue.take(4)]).toEqual([5, 6]);
  });

  it('reads 200,000 one-byte chunks in a handful of reads', () => {
    const queue = new ByteQueue();
    for (let i = 0; i < 200_000; i++) queue.push(bytes(i % 251));
    queue.end();
    const stream = new InputStream(queue);
    const reads: Uint8Array[] = [];
    for (;;) {
      try {
        reads.push(stream.read(65_536n));
      } catch {
        break; // closed: the body ended
      }
    }
    expect(reads.length).toBe(4);
    const joined = new Uint8Array(reads.reduce((n, r) => n + r.byteLength, 0));
    let at = 0;
    for (const r of reads) {
      joined.set(r, at);
      at += r.byteLength;
    }
    expect(joined.byteLength).toBe(200_000);
    expect(joined.every((b, i) => b === i % 251)).toBe(true);
  });

  it('wakes a waiting reader after the pushes of one I/O callback, though microtasks run between them', async () => {
    // As HTTP/2 delivers a socket read's DATA frames: one callback each, microtasks in between.
    const queue = new ByteQueue();
    const reads: number[] = [];
    const reader = (async () => {
      await queue.whenReadable();
      reads.push(queue.take(65_536).byteLength);
    })();
    for (let i = 0; i < 1000; i++) {
      queue.push(bytes(1));
      await Promise.resolve();
    }
    await reader;
    expect(reads).toEqual([1000]);
  });

  it('returns a large first chunk without copying, and resolves drain waiters once empty', async () => {
    const big = new Uint8Array(4_096);
    const queue = queueOf([big, bytes(1)]);
    const drained = queue.whenDrained();
    const first = queue.take(4_096);
    expect(first.buffer).toBe(big.buffer);
    expect([...queue.take(10)]).toEqual([1]);
    await expect(drained).resolves.toBeUndefined();
  });

  it('delivers queued bytes before the end or the failure', () => {
    const ended = queueOf([bytes(1), bytes(2)]);
    ended.end();
    expect([...ended.take(8)]).toEqual([1, 2]);
    expect(() => ended.take(8)).toThrow();
    const failed = queueOf([bytes(1), bytes(2)]);
    failed.fail('the client aborted the request');
    expect([...failed.take(8)]).toEqual([1, 2]);
    expect(() => failed.take(8)).toThrow();
  });
});
