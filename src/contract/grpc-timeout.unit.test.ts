/** The `grpc-timeout` grammar: at most 8 ASCII digits and one unit; everything else is malformed. */
import { describe, expect, it } from 'vitest';
import { parseGrpcTimeout } from './grpc-timeout.ts';

describe('parseGrpcTimeout', () => {
  it.each([
    ['1H', 3_600_000],
    ['2M', 120_000],
    ['2S', 2_000],
    ['250m', 250],
    ['1500u', 1.5],
    ['2000000n', 2],
    ['0S', 0],
    ['99999999H', 99_999_999 * 3_600_000],
    ['600H', 2_160_000_000],
    ['2147484S', 2_147_484_000],
  ])('%s is %d ms', (value, ms) => {
    expect(parseGrpcTimeout(value)).toBe(ms);
  });

  it('an absent header is no deadline', () => {
    expect(parseGrpcTimeout(null)).toBeUndefined();
    expect(parseGrpcTimeout(undefined)).toBeUndefined();
  });

  it.each(['', 'S', '5', '5X', '5s ', ' 5S', '+5S', '-5S', '5.0S', '123456789S', '１S', '٣S', '5SS', '5 S', '1S, 2S', 'soon'])('%j is malformed', (value) => {
    expect(parseGrpcTimeout(value)).toBeNull();
  });
});
