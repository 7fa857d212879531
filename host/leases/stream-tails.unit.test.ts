import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from '../../src/contract/wit/interfaces/app-platform-event-store.js';
import { PENDING, StreamTails, TAIL_EVENTS } from './stream-tails.ts';

const ev = (revision: number): RecordedEvent => ({
  sequence: BigInt(100 + revision),
  streamId: 's',
  revision: BigInt(revision),
  eventType: 't',
  payload: '{}',
  metadata: '{}',
  recordedAt: 1n,
});
/** Revisions `high` down to `low`, newest first. */
const newest = (high: number, low: number): RecordedEvent[] => Array.from({ length: high - low + 1 }, (_, i) => ev(high - i));
const revisions = (events: RecordedEvent[] | undefined) => events?.map((e) => Number(e.revision));

describe('StreamTails', () => {
  it('answers nothing for a stream it holds no tail of', () => {
    expect(new StreamTails().read('s', { direction: 'backward', limit: 5 })).toBeUndefined();
  });

  it('answers backward and forward reads inside the tail, and leaves the rest to the store', () => {
    const tails = new StreamTails();
    tails.set('s', newest(40, 30));
    expect(revisions(tails.read('s', { direction: 'backward', limit: 5 }))).toEqual([40, 39, 38, 37, 36]);
    expect(revisions(tails.read('s', { direction: 'backward', fromRevision: 35n, limit: 3 }))).toEqual([35, 34, 33]);
    expect(revisions(tails.read('s', { direction: 'backward', fromRevision: 99n, limit: 2 }))).toEqual([40, 39]);
    expect(tails.read('s', { direction: 'backward', limit: 20 })).toBeUndefined();
    expect(revisions(tails.read('s', { direction: 'forward', fromRevision: 38n, limit: 10 }))).toEqual([38, 39, 40]);
    expect(tails.read('s', { direction: 'forward', fromRevision: 29n, limit: 2 })).toBeUndefined();
    expect(tails.read('s', { direction: 'forward', limit: 2 })).toBeUndefined();
    expect(tails.read('s', { direction: 'forward', fromRevision: 41n, limit: 2 })).toEqual([]);
    expect(tails.read('s', { direction: 'backward', limit: 0 })).toBeUndefined();
  });

  it('answers every read of a stream it holds entirely, or of an empty one', () => {
    const tails = new StreamTails();
    tails.set('s', newest(3, 1));
    expect(revisions(tails.read('s', { direction: 'backward', limit: 100 }))).toEqual([3, 2, 1]);
    expect(revisions(tails.read('s', { direction: 'forward', limit: 100 }))).toEqual([1, 2, 3]);
    tails.set('e', []);
    expect(tails.read('e', { direction: 'backward', limit: 5 })).toEqual([]);
    expect(tails.read('e', { direction: 'forward', fromRevision: 4n, limit: 5 })).toEqual([]);
  });

  it('grows with the appends of its holder, keeps the newest TAIL_EVENTS, and drops on a gap', () => {
    const tails = new StreamTails();
    tails.set('s', []);
    for (let r = 1; r <= TAIL_EVENTS + 4; r += 2) tails.appended('s', [ev(r), ev(r + 1)]);
    const all = tails.read('s', { direction: 'backward', limit: TAIL_EVENTS });
    expect(revisions(all)).toEqual(newest(TAIL_EVENTS + 4, 5).map((e) => Number(e.revision)));
    expect(tails.read('s', { direction: 'backward', limit: TAIL_EVENTS + 1 })).toBeUndefined();
    tails.appended('s', [ev(TAIL_EVENTS + 6)]); // revision TAIL_EVENTS + 5 is missing: someone else wrote
    expect(tails.read('s', { direction: 'backward', limit: 1 })).toBeUndefined();
  });

  it('keeps no tail that is not contiguous, and forgets a dropped one', () => {
    const tails = new StreamTails();
    tails.set('s', [ev(5), ev(3)]);
    expect(tails.read('s', { direction: 'backward', limit: 1 })).toBeUndefined();
    tails.set('s', [ev(5), ev(4)]);
    tails.drop('s');
    expect(tails.read('s', { direction: 'backward', limit: 1 })).toBeUndefined();
  });

  it('shows events handed on (pending) to readNewest only, until their append confirms them in order', () => {
    const tails = new StreamTails();
    tails.set('s', newest(10, 8));
    const pending = (revision: number): RecordedEvent => ({ ...ev(revision), sequence: PENDING, recordedAt: 0n });
    expect(tails.handOn('s', [pending(11)])).toBe(true);
    expect(tails.handOn('s', [pending(12)])).toBe(true);
    expect(tails.head('s')).toBe(12n);
    expect(tails.readNewest('s', 3)?.map((e) => [Number(e.revision), e.sequence])).toEqual([
      [12, PENDING],
      [11, PENDING],
      [10, 110n],
    ]);
    // Any other reader sees what is committed, never a pending event.
    expect(revisions(tails.read('s', { direction: 'backward', limit: 3 }))).toEqual([10, 9, 8]);
    tails.appended('s', [ev(11)]);
    expect(revisions(tails.read('s', { direction: 'backward', limit: 2 }))).toEqual([11, 10]);
    expect(tails.readNewest('s', 2)?.map((e) => e.sequence)).toEqual([PENDING, 111n]);
    tails.appended('s', [ev(12)]);
    expect(tails.readNewest('s', 2)?.map((e) => e.sequence)).toEqual([112n, 111n]);
  });

  it('drops the tail when a confirmation comes out of order or a hand-on does not continue it', () => {
    const tails = new StreamTails();
    const pending = (revision: number): RecordedEvent => ({ ...ev(revision), sequence: PENDING, recordedAt: 0n });
    tails.set('s', newest(10, 8));
    tails.handOn('s', [pending(11)]);
    tails.handOn('s', [pending(12)]);
    tails.appended('s', [ev(12)]); // 11 was not confirmed first
    expect(tails.readNewest('s', 1)).toBeUndefined();
    tails.set('s', newest(10, 8));
    expect(tails.handOn('s', [pending(12)])).toBe(false);
    expect(tails.read('s', { direction: 'backward', limit: 1 })).toBeUndefined();
  });
});
