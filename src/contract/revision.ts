/** The one reading of an append's expected revision (WIT `expected-revision`), for every store on either side. */
import type { ExpectedRevision } from './wit/interfaces/app-platform-types.js';

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
