/** The in-memory platform must behave like the real backends (see wit/), or tests prove nothing. */
import { describe, expect, it } from 'vitest';
import { StoreError } from '../../errors.ts';
import type { NewEvent } from '../ports.ts';
import { createMemoryPlatform } from './memory-platform.ts';

const event = (eventType = 'happened'): NewEvent => ({ eventType, payload: '{}', metadata: '{}' });

function storeError(fn: () => unknown): StoreError {
  try {
    fn();
  } catch (error) {
    if (error instanceof StoreError) return error;
    throw error;
  }
  throw new Error('expected a StoreError');
}

describe('memory event store', () => {
  it('assigns 1-based revisions per stream and one global sequence', () => {
    const { events } = createMemoryPlatform();
    events.append('a', { tag: 'no-stream' }, [event(), event()]);
    const [b] = events.append('b', { tag: 'any' }, [event()]);
    expect([b?.sequence, b?.revision, b?.recordedAt]).toEqual([3n, 1n, BigInt(Date.UTC(2025, 0, 1))]);
    expect([events.streamRevision('a'), events.streamRevision('b'), events.streamRevision('c')]).toEqual([2n, 1n, 0n]);
    expect(events.headSequence()).toBe(3n);
  });

  it('enforces expected revisions atomically', () => {
    const { events } = createMemoryPlatform();
    expect(storeError(() => events.append('a', { tag: 'stream-exists' }, [event()])).kind).toBe('conflict');
    events.append('a', { tag: 'no-stream' }, [event()]);
    expect(storeError(() => events.append('a', { tag: 'no-stream' }, [event()])).kind).toBe('conflict');
    expect(storeError(() => events.append('a', { tag: 'exact', val: 0n }, [event(), event()])).kind).toBe('conflict');
    events.append('a', { tag: 'exact', val: 1n }, [event()]);
    expect(events.streamRevision('a')).toBe(2n);
    expect(events.headSequence()).toBe(2n);
  });

  it('rejects invalid arguments', () => {
    const { events } = createMemoryPlatform();
    expect(storeError(() => events.append('', { tag: 'any' }, [event()])).kind).toBe('invalid');
    expect(storeError(() => events.readAll(0n, 0)).kind).toBe('invalid');
    expect(storeError(() => events.readStream('a', { direction: 'forward', limit: 1001 })).kind).toBe('invalid');
  });

  it('as every backend: an empty batch only checks the expectation, a payload is kept byte for byte', () => {
    const { events } = createMemoryPlatform();
    expect(events.append('a', { tag: 'no-stream' }, [])).toEqual([]);
    expect(storeError(() => events.append('a', { tag: 'stream-exists' }, [])).kind).toBe('conflict');
    expect(events.append('a', { tag: 'any' }, [{ ...event(), payload: 'not json' }])[0]?.payload).toBe('not json');
  });

  it('reads streams forward and backward from an inclusive revision', () => {
    const { events } = createMemoryPlatform();
    events.append('a', { tag: 'any' }, [event('1'), event('2'), event('3'), event('4')]);
    const types = (list: { eventType: string }[]) => list.map((e) => e.eventType);
    expect(types(events.readStream('a', { direction: 'forward', limit: 2 }))).toEqual(['1', '2']);
    expect(types(events.readStream('a', { direction: 'forward', fromRevision: 3n, limit: 10 }))).toEqual(['3', '4']);
    expect(types(events.readStream('a', { direction: 'backward', limit: 2 }))).toEqual(['4', '3']);
    expect(types(events.readStream('a', { direction: 'backward', fromRevision: 2n, limit: 10 }))).toEqual(['2', '1']);
    expect(events.readStream('missing', { direction: 'backward', limit: 5 })).toEqual([]);
  });

  it('reads all streams after a sequence and counts by type', () => {
    const { events } = createMemoryPlatform();
    events.append('a', { tag: 'any' }, [event('user_x'), event('counter_y')]);
    events.append('b', { tag: 'any' }, [event('user_x')]);
    expect(events.readAll(1n, 10).map((e) => e.sequence)).toEqual([2n, 3n]);
    expect(events.countByType('user_')).toEqual([{ eventType: 'user_x', count: 2n }]);
  });
});

describe('memory projection store', () => {
  const put = (id: string, body = '{}') => ({ tag: 'put' as const, val: { collection: 'c', id, body } });

  it('commits changes with the checkpoint, never backward, only from the expected checkpoint', () => {
    const { projections } = createMemoryPlatform();
    expect(projections.commit('p', 0n, 5n, [put('x'), put('y')])).toBe(true);
    expect(projections.commit('p', 0n, 6n, [put('z')])).toBe(false);
    expect(projections.getDocument({ collection: 'c', id: 'z' })).toBeUndefined();
    expect(storeError(() => projections.commit('p', 5n, 4n, [])).kind).toBe('invalid');
    expect(projections.commit('p', 5n, 6n, [put('x', '{"v":2}'), { tag: 'delete', val: { collection: 'c', id: 'y' } }])).toBe(true);
    expect(projections.checkpoint('p')).toBe(6n);
    expect(projections.getDocument({ collection: 'c', id: 'x' })).toEqual({ collection: 'c', id: 'x', body: '{"v":2}', version: 2n });
    expect(projections.listDocuments('c', undefined, 10).map((d) => d.id)).toEqual(['x']);
  });

  it('lists documents in id order after a given id', () => {
    const { projections } = createMemoryPlatform();
    projections.commit('p', 0n, 1n, [put('b'), put('a'), put('c')]);
    expect(projections.listDocuments('c', 'a', 1).map((d) => d.id)).toEqual(['b']);
  });
});

describe('memory key-value', () => {
  it('expires entries on the platform clock', () => {
    const { keyValue, clock } = createMemoryPlatform();
    keyValue.set('n', 'k', 'v', 1000n);
    keyValue.set('n', 'forever', 'v', undefined);
    clock.advance(999);
    expect(keyValue.get('n', 'k')).toBe('v');
    clock.advance(1);
    expect(keyValue.get('n', 'k')).toBeUndefined();
    expect(keyValue.get('n', 'forever')).toBe('v');
  });

  it('takes at most once and deletes', () => {
    const { keyValue } = createMemoryPlatform();
    keyValue.set('n', 'k', 'v', undefined);
    expect([keyValue.take('n', 'k'), keyValue.take('n', 'k')]).toEqual(['v', undefined]);
    keyValue.set('n', 'k', 'v', undefined);
    expect([keyValue.delete('n', 'k'), keyValue.delete('n', 'k')]).toEqual([true, false]);
  });

  it('increments, keeping the first expiry', () => {
    const { keyValue, clock } = createMemoryPlatform();
    expect(keyValue.increment('n', 'k', 2n, 1000n)).toBe(2n);
    clock.advance(600);
    expect(keyValue.increment('n', 'k', 3n, 1000n)).toBe(5n);
    clock.advance(400);
    expect(keyValue.increment('n', 'k', 1n, 1000n)).toBe(1n);
    keyValue.set('n', 's', 'text', undefined);
    expect(storeError(() => keyValue.increment('n', 's', 1n, 10n)).kind).toBe('invalid');
  });
});

describe('memory pubsub, logger and faults', () => {
  it('queues messages published after subscribing', () => {
    const { pubsub } = createMemoryPlatform();
    pubsub.publish('ch', 'early');
    const subscription = pubsub.subscribe('ch');
    pubsub.publish('ch', 'one');
    pubsub.publish('other', 'x');
    expect([subscription.next(10), subscription.next(10)]).toEqual(['one', undefined]);
  });

  it('injects failures once, always, or runs an action first', () => {
    const platform = createMemoryPlatform();
    platform.failNext('publish');
    expect(storeError(() => platform.pubsub.publish('ch', 'm')).kind).toBe('unavailable');
    platform.pubsub.publish('ch', 'm');
    platform.faults.failAlways('headSequence', new StoreError('internal', 'x'));
    expect(storeError(() => platform.events.headSequence()).kind).toBe('internal');
    expect(storeError(() => platform.events.headSequence()).kind).toBe('internal');
    platform.faults.clear();
    platform.faults.beforeNext('headSequence', () => platform.events.append('a', { tag: 'any' }, [event()]));
    expect(platform.events.headSequence()).toBe(1n);
    expect(platform.faults.calls('publish')).toBe(2);
  });

  it('records log entries and sleeps', async () => {
    const platform = createMemoryPlatform();
    platform.logger.log('warn', 'w', { code: 'x' });
    await platform.sleep(25);
    expect(platform.logger.codes()).toEqual(['x']);
    expect(platform.sleeps).toEqual([25]);
    expect(platform.now()).toBe(Date.UTC(2025, 0, 1) + 25);
  });
});
