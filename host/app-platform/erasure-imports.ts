/**
 * The app:platform/erasure import: `scrub` removes the copies of removed data from the store's
 * files (host/storage/scrubber.ts; a JSPI suspending import, since it may wait for other readers).
 */
import type { HostLogger } from '../log.ts';
import type { Scrubber } from '../storage/scrubber.ts';
import { guard } from './guard.ts';

export function erasureImports(scrubber: Scrubber, logger: HostLogger) {
  return {
    'app:platform/erasure': {
      scrub: guard(logger, 'scrub', () => scrubber.scrub()),
    },
  };
}
