// The stock server runs one guest call at a time (synchronously), so a writer's turn needs no
// queue: every acquire gets the turn at once, and its append is the plain event-store append.
import { storage } from './storage.js';

let tokens = 0n;
export class Lease {
  #streamId;
  #token;
  constructor(streamId) {
    this.#streamId = streamId;
    this.#token = ++tokens;
  }
  token() {
    return this.#token;
  }
  append(expected, events) {
    return storage.events.append(this.#streamId, expected, events);
  }
}
export const acquire = (streamId) => new Lease(streamId);
