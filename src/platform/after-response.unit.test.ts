import { describe, expect, it } from 'vitest';
import { AfterResponse } from './after-response.ts';

describe('AfterResponse', () => {
  it('runs nothing until drained, then every task in order, one per key', () => {
    const queue = new AfterResponse();
    const ran: string[] = [];
    queue.defer('a', () => ran.push('a1'));
    queue.defer('b', () => ran.push('b'));
    queue.defer('a', () => ran.push('a2')); // the waiting 'a' does the same work: dropped
    expect(ran).toEqual([]);
    expect(queue.pending).toBe(2);
    queue.drain(() => {});
    expect(ran).toEqual(['a1', 'b']);
    expect(queue.pending).toBe(0);
  });

  it('reports a task that throws and still runs the others, and those queued while draining', () => {
    const queue = new AfterResponse();
    const ran: string[] = [];
    const errors: unknown[] = [];
    queue.defer('fails', () => {
      throw new Error('projection store down');
    });
    queue.defer('queues', () => queue.defer('later', () => ran.push('later')));
    queue.drain((error) => errors.push(error));
    expect(errors).toEqual([new Error('projection store down')]);
    expect(ran).toEqual(['later']);
    // The next exchange starts with an empty queue: a key may be queued again.
    queue.defer('fails', () => ran.push('again'));
    queue.drain(() => {});
    expect(ran).toEqual(['later', 'again']);
  });
});
