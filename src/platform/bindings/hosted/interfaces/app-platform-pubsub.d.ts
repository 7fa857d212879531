/// <reference path="./app-platform-types.d.ts" />
declare module 'app:platform/pubsub@0.1.0' {
  /**
   * Publishes `message` to every current subscriber of `channel`, on every host sharing the broker.
   */
  export function publish(channel: string, message: string): void;
  export function subscribe(channel: string): Subscription;
  export type PlatformError = import('app:platform/types@0.1.0').PlatformError;
  
  export class Subscription implements Disposable {
    /**
     * This type does not have a public constructor.
     */
    private constructor();
    /**
    * Waits up to `timeout-ms` for the next message; none on timeout.
    * Asynchronous on the host: a waiting guest holds no thread.
    */
    next(timeoutMs: number): string | undefined;
    [Symbol.dispose](): void;
  }
}
