import { describe, expect, it } from 'vitest';
import { revisionMatches } from './revision.ts';

describe('revisionMatches()', () => {
  it('reads each expectation of the WIT variant against the actual revision (0 = no stream)', () => {
    const table = [
      [{ tag: 'any' }, [true, true]],
      [{ tag: 'no-stream' }, [true, false]],
      [{ tag: 'stream-exists' }, [false, true]],
      [{ tag: 'exact', val: 3n }, [false, false]],
    ] as const;
    for (const [expected, [atZero, atThree]] of table) {
      expect([revisionMatches(expected, 0n), revisionMatches(expected, 3n)], expected.tag).toEqual([atZero, expected.tag === 'exact' ? true : atThree]);
    }
    expect(revisionMatches({ tag: 'exact', val: 3n }, 4n)).toBe(false);
  });
});
