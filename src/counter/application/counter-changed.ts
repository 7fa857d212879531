import type { StoreConflict } from '../../errors.ts';

/** A store conflict on the counter's stream: the command met a newer revision, so the client may try again. */
export const COUNTER_CHANGED: StoreConflict = { code: 'concurrency', message: 'the counter was changed concurrently, try again' };
