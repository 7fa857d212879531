import { describe, expect, it } from 'vitest';
import { BATCH_MAX, BATCH_STOPS, describeEvent, isBatchAmount, stopFor } from './format.ts';

describe('describeEvent()', () => {
  it.each([
    ['incremented', '{"amount":5,"value":12}', '+5 → 12'],
    ['decremented', '{"amount":2,"value":-10}', '−2 → −10'],
    ['incremented', '{"amount":2147483647,"value":2147483647}', '+2\u202f147\u202f483\u202f647 → 2\u202f147\u202f483\u202f647'],
    ['incremented', '{"amount":5}', '+5'],
    ['reset_performed', '{"previous":38}', 'reset → 0'],
    ['incremented', 'not json', 'Increment'],
    ['renamed', '{}', 'renamed'],
  ])('%s %s → %s', (event_type, payload, words) => expect(describeEvent({ event_type, payload })).toBe(words));
});

describe('the batch amount', () => {
  it('spans exactly what the API accepts, on stops that start at every amount up to 9', () => {
    expect(BATCH_STOPS.slice(0, 11)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 20]);
    expect(BATCH_STOPS.at(-1)).toBe(BATCH_MAX);
    expect(BATCH_MAX).toBe(2_147_483_647);
    expect([...BATCH_STOPS].sort((a, b) => a - b)).toEqual(BATCH_STOPS);
  });
  it('puts the slider at the largest stop not above a typed amount', () => {
    expect(BATCH_STOPS[stopFor(1)]).toBe(1);
    expect(BATCH_STOPS[stopFor(25)]).toBe(20);
    expect(BATCH_STOPS[stopFor(2_147_483_646)]).toBe(2_000_000_000);
    expect(BATCH_STOPS[stopFor(BATCH_MAX)]).toBe(BATCH_MAX);
  });
  it('takes positive 32-bit integers only', () => {
    expect([0, 1, 2_147_483_647, 2_147_483_648, 1.5, Number.NaN].map(isBatchAmount)).toEqual([false, true, true, false, false, false]);
  });
});
