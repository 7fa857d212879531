/** @module Interface app:platform/pubsub@0.1.0 **/
/**
 * Publishes `message` to every current subscriber of `channel`, on every host sharing the broker.
 * Returns once the message is handed to the broker, not delivered: an error says the broker is
 * known to be unavailable; a failure found later is the host's to log and count.
 */
export function publish(channel: string, message: string): void;
export function subscribe(channel: string): Subscription;
export type PlatformError = import('./app-platform-types.js').PlatformError;

export class Subscription {
  /**
   * This type does not have a public constructor.
   */
  private constructor();
  /**
  * Waits up to `timeout-ms` for the next message; none on timeout.
  * Asynchronous on the host: a waiting guest holds no thread. May return none before the
  * timeout when the host wants the guest to check on its caller (the client of the response
  * it is streaming went away): a write then fails and the guest can stop.
  */
  next(timeoutMs: number): string | undefined;
}
