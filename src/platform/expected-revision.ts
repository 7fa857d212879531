/** The one reading of an append's expectation, for the stores that live in the guest. */
import type { ExpectedRevision } from './ports.ts';

/** Whether `actual` (0 = no stream) satisfies `expected`. */
export function revisionMatches(expected: ExpectedRevision, actual: bigint): boolean {
  switch (expected.tag) {
    case 'any':
      return true;
    case 'no-stream':
      return actual === 0n;
    case 'stream-exists':
      return actual > 0n;
    case 'exact':
      return actual === expected.val;
  }
}
