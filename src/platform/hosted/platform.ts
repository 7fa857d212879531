/**
 * The Platform ports bound to the hosted world's WIT imports (app:platform/*), implemented by
 * whichever host runs the component (the Node host: SQLite, PostgreSQL or Redis).
 */
import * as events from 'app:platform/event-store@0.1.0';
import * as streamLease from 'app:platform/stream-lease@0.1.0';
import * as projections from 'app:platform/projection-store@0.1.0';
import * as kv from 'app:platform/key-value@0.1.0';
import * as pubsub from 'app:platform/pubsub@0.1.0';
import * as mail from 'app:platform/mail@0.1.0';
import * as erasure from 'app:platform/erasure@0.1.0';
import type { AfterResponse } from '../after-response.ts';
import type { EventStore, KeyValue, Mailer, Platform, ProjectionStore, PubSub, StreamLeases } from '../ports.ts';
import { implementationNormalizes, witPasswordHashing } from '../password-hashing.ts';
import { consoleLogger } from '../log.ts';
import { call } from './errors.ts';

const eventStore: EventStore = {
  append: (streamId, expected, list) => call(() => events.append(streamId, expected, list)),
  readStream: (streamId, options) => call(() => events.readStream(streamId, options)),
  streamRevision: (streamId) => call(() => events.streamRevision(streamId)),
  readAll: (after, limit) => call(() => events.readAll(after, limit)),
  headSequence: () => call(() => events.headSequence()),
  countByType: (prefix) => call(() => events.countByType(prefix)),
  removeStream: (streamId, expected) => call(() => events.removeStream(streamId, expected)),
  truncateBefore: (streamId, revision) => call(() => events.truncateBefore(streamId, revision)),
};

const leases: StreamLeases = {
  acquire: (streamId, waitMs, newest) => {
    const turn = call(() => streamLease.acquire(streamId, waitMs, newest));
    if (turn === undefined) return undefined;
    const { lease } = turn;
    return {
      newest: turn.newest,
      // Read when asked (the fencing checks of tests and tools): no command needs it, so no import call per command.
      get token() {
        return lease.token();
      },
      readNewest: (limit) => call(() => lease.readNewest(limit)),
      append: (expected, list) => call(() => lease.append(expected, list)),
      appendAndEnd: (expected, list, newest, announce) => call(() => lease.appendAndEnd(expected, list, newest, announce)),
      release: () => lease[Symbol.dispose](),
    };
  },
};

const projectionStore: ProjectionStore = {
  checkpoint: (name) => call(() => projections.checkpoint(name)),
  commit: (name, expected, next, changes) => call(() => projections.commit(name, expected, next, changes)),
  getDocument: (key) => call(() => projections.getDocument(key)),
  listDocuments: (collection, afterId, limit) => call(() => projections.listDocuments(collection, afterId, limit)),
};

const keyValue: KeyValue = {
  get: (ns, key) => call(() => kv.get(ns, key)),
  set: (ns, key, value, ttl) => call(() => kv.set(ns, key, value, ttl)),
  take: (ns, key) => call(() => kv.take(ns, key)),
  increment: (ns, key, delta, ttl) => call(() => kv.increment(ns, key, delta, ttl)),
  delete: (ns, key) => call(() => kv.delete(ns, key)),
};

const realtime: PubSub = {
  publish: (channel, message) => call(() => pubsub.publish(channel, message)),
  subscribe: (channel) => {
    const subscription = call(() => pubsub.subscribe(channel));
    return {
      next: (timeoutMs) => call(() => subscription.next(timeoutMs)),
      close: () => subscription[Symbol.dispose](),
    };
  },
};

const mailer: Mailer = {
  send: (message) =>
    call(() => mail.send({ ...message, html: message.html ?? '', secrets: message.secrets ?? [], template: message.template ?? '', values: message.values ?? [] })),
};

/** `afterResponse`: where work that waits for the response goes (the entry point drains it, src/hosted.ts). */
export function hostedPlatform(afterResponse: AfterResponse): Platform {
  return {
    events: eventStore,
    leases,
    projections: projectionStore,
    keyValue,
    pubsub: realtime,
    passwords: witPasswordHashing(implementationNormalizes),
    mail: mailer,
    logger: consoleLogger(),
    now: () => Date.now(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    afterResponse: (key, task) => afterResponse.defer(key, task),
    // The Node host sweeps its store itself before each maintenance pass (host/maintenance/).
    storeUpkeep: () => 0,
    scrubRemoved: () => call(() => erasure.scrub()),
  };
}
