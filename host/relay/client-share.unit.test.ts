/** Each client's share of the relay's frames: the split, the floor, the bucket and the order of waiting streams. */
import { describe, expect, it } from 'vitest';
import { ClientFrameShare, FLOOR_PART, SPLIT_AT_LEAST } from './client-share.ts';

describe('ClientFrameShare', () => {
  it('gives a client alone an eighth of the writes, splits them among clients holding streams, down to the floor', () => {
    const share = new ClientFrameShare(5_000);
    share.join('a', 0);
    // However many streams it holds.
    for (let i = 0; i < 127; i++) share.join('a', 0);
    expect(share.rate).toBe(5_000 / SPLIT_AT_LEAST);
    for (let i = 0; i < 10; i++) share.join(`b${i}`, 0);
    expect(share.rate).toBe(5_000 / 11);
    for (let i = 0; i < 1_000; i++) share.join(`c${i}`, 0);
    expect(share.rate).toBe(5_000 / FLOOR_PART);
    for (let i = 0; i < 1_000; i++) share.leave(`c${i}`, false);
    expect(share.holders).toBe(11);
  });

  it('grants a client frames at its rate, with a burst of a quarter second, whatever its streams', () => {
    const share = new ClientFrameShare(8_000); // 1,000 frames/s for a client alone, 250 at once
    for (let i = 0; i < 500; i++) share.join('heavy', 0);
    let granted = 0;
    while (share.take('heavy', 0)) granted++;
    expect(granted).toBe(250);
    expect(share.msUntil('heavy', 500, 0)).toBe(250); // never more than the bucket holds
    expect(share.take('heavy', 0.5)).toBe(false);
    expect(share.take('heavy', 1)).toBe(true);
    // 1 s later: 1,000 frames more at most (the bucket holds 250).
    granted = 0;
    for (let t = 1; t <= 1_001; t++) while (share.take('heavy', t)) granted++;
    expect(granted).toBeGreaterThanOrEqual(999);
    expect(granted).toBeLessThanOrEqual(1_001);
  });

  it("serves a client's waiting streams before its new frames", () => {
    const share = new ClientFrameShare(8_000);
    share.join('c', 0);
    share.join('c', 0);
    share.owe('c', true);
    expect(share.take('c', 0)).toBe(false); // a new frame: the waiting stream comes first
    expect(share.take('c', 0, true)).toBe(true); // the waiting stream
    share.owe('c', false);
    expect(share.take('c', 0)).toBe(true);
    share.owe('c', true);
    share.leave('c', true); // a waiting stream that leaves no longer holds the others back
    expect(share.take('c', 0)).toBe(true);
  });
});
