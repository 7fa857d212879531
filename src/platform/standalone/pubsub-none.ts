/**
 * No pub/sub under `wasmtime serve`: every request runs in a fresh instance, so there is no one
 * to deliver a message to. Realtime is forced to `polling` (streams re-read the store on an
 * interval), which never calls these; they exist to satisfy the Platform port.
 */
import { StoreError } from '../../errors.ts';
import type { PubSub } from '../ports.ts';

export const noPubSub: PubSub = {
  publish: () => undefined,
  subscribe: () => {
    throw new StoreError('unavailable', 'pub/sub is not available in the standalone variant (realtime is polling)');
  },
};
