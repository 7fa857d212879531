/// <reference path="./bindings/hosted/hosted.d.ts" />
/**
 * Ports: what the application needs from the platform. The hosted binding (WIT imports) and
 * the standalone binding (files on wasi:filesystem) implement them; tests use in-memory fakes.
 * The stores' records and functions are the WIT's, as jco's guest bindings declare them
 * (src/platform/bindings/, `npm run gen:wit-types`); leases, pub/sub and logging are shaped here.
 * Calls are synchronous because WIT imports are synchronous for the guest (on the Node host a
 * waiting call suspends the instance through JSPI). Failures are thrown as `StoreError`.
 */
import type * as EventStoreWit from 'app:platform/event-store@0.1.0';
import type * as KeyValueWit from 'app:platform/key-value@0.1.0';
import type { MailMessage as WitMailMessage, MailSecret } from 'app:platform/mail@0.1.0';
import type * as PasswordHashingWit from 'app:platform/password-hashing@0.1.0';
import type * as ProjectionStoreWit from 'app:platform/projection-store@0.1.0';
import type { ExpectedRevision } from 'app:platform/types@0.1.0';
import type { NewEvent, RecordedEvent } from 'app:platform/event-store@0.1.0';

export type { ExpectedRevision, PlatformError } from 'app:platform/types@0.1.0';
export type { NewEvent, ReadStreamOptions, RecordedEvent, TypeCount } from 'app:platform/event-store@0.1.0';
export type { DocumentChange, DocumentKey, Document as StoredDocument } from 'app:platform/projection-store@0.1.0';
export type { MailSecret } from 'app:platform/mail@0.1.0';

/** The functions of a WIT interface's guest binding, as an object the application is handed. */
type FunctionsOf<Interface> = { [K in keyof Interface as Interface[K] extends (...args: never) => unknown ? K : never]: Interface[K] };

export type EventStore = FunctionsOf<typeof EventStoreWit>;
export type ProjectionStore = FunctionsOf<typeof ProjectionStoreWit>;
export type KeyValue = FunctionsOf<typeof KeyValueWit>;

/**
 * One writer's turn on a stream (WIT `stream-lease`). `newest` holds the stream's newest events
 * as the turn started (as many as `acquire` asked for), what `readNewest` would have answered:
 * events of an earlier turn still being committed come first, with sequence 0 (PENDING_SEQUENCE)
 * and recordedAt 0. `append` is the event store's append, refused (StoreError 'unavailable') once
 * the turn expired. `appendAndEnd` is the turn's last append: the host may pass the turn on before
 * it is confirmed; it returns once the events are committed: them, newest first, then up to
 * `newest` in all of the committed events before them (possibly fewer); with `announce`, that
 * answer is also published on that pub/sub channel (src/contract/committed-events.ts), best
 * effort. The lease takes no call after it. `release` ends the turn; it never throws.
 */
export interface StreamLease {
  readonly token: bigint;
  readonly newest: readonly RecordedEvent[];
  readNewest(limit: number): RecordedEvent[];
  append(expected: ExpectedRevision, events: NewEvent[]): RecordedEvent[];
  appendAndEnd(expected: ExpectedRevision, events: NewEvent[], newest: number, announce?: string): RecordedEvent[];
  release(): void;
}

/** `sequence` of an event read through a lease before its append is confirmed (committed sequences start at 1). */
export const PENDING_SEQUENCE = 0n;

/** Per-stream critical sections: writers queue for a stream instead of racing on it. */
export interface StreamLeases {
  /** The turn on `streamId` with its `newest` events, or undefined when it did not come within `waitMs`. */
  acquire(streamId: string, waitMs: number, newest: number): StreamLease | undefined;
}

/** A subscription's wait: the next message, or undefined on timeout. */
export interface Subscription {
  next(timeoutMs: number): string | undefined;
  /** Ends the subscription; later `next` calls are not allowed. */
  close(): void;
}

export interface PubSub {
  publish(channel: string, message: string): void;
  subscribe(channel: string): Subscription;
}

/**
 * Password hashing (a host capability: a KDF is too slow in the guest's interpreter). `hash`
 * returns a self-describing string (algorithm, parameters, salt); `verify` compares in constant
 * time and throws StoreError 'invalid' for a string it does not understand.
 */
export type PasswordHasher = FunctionsOf<typeof PasswordHashingWit>;

/**
 * One plain-text message (WIT `mail.mail-message`): `sender` is `Name <address>` or `address`;
 * `secrets` (none when left out) are made by the deliverer and stand in `text` as placeholders.
 */
export type MailMessage = Omit<WitMailMessage, 'secrets' | 'html' | 'template' | 'values'> & {
  secrets?: MailSecret[];
  html?: string;
  template?: string;
  values?: Array<[string, string]>;
};

/**
 * Outgoing mail: `send` returns once the message is in the durable outbox (the Node host's store,
 * or the standalone file store), which delivers it later, at least once, making its secrets then
 * (src/contract/mail-secrets.ts). Returns the outbox id.
 */
export interface Mailer {
  send(message: MailMessage): string;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** Structured logging: one JSON object per line. Never pass secrets in `fields`. */
export interface Logger {
  log(level: LogLevel, message: string, fields?: Record<string, unknown>): void;
}

/** Everything the application reaches outside itself. */
export interface Platform {
  events: EventStore;
  leases: StreamLeases;
  projections: ProjectionStore;
  keyValue: KeyValue;
  pubsub: PubSub;
  passwords: PasswordHasher;
  mail: Mailer;
  logger: Logger;
  /** Wall-clock milliseconds since the Unix epoch. */
  now(): number;
  /** Waits; used for bounded retry back-off. */
  sleep(ms: number): Promise<void>;
  /**
   * Runs `task` once the response to the current request is sent: work the client should not
   * wait for (src/platform/after-response.ts). Dropped if a task with the same `key` waits already
   * (it does the same work). A task that throws is logged, never answered.
   */
  afterResponse(key: string, task: () => void): void;
  /**
   * The store's own housekeeping, where no host does it (the file store: expired key-value files,
   * compaction of its projection files); maintenance runs it. Returns how many files or entries it
   * removed (0 where there is nothing to do).
   */
  storeUpkeep(): number;
  /**
   * Makes what was removed so far unrecoverable from the store's files (WIT `erasure.scrub`: the
   * Node host empties SQLite's write-ahead log; the file store compacts its logs), as far as the
   * backend can from inside. Called once an erasure has committed (account deletion).
   */
  scrubRemoved(): void;
}
