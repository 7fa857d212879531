/** A realtime broker as the host sees it: publish, and listen with a callback. */
export interface PubSubBackend {
  readonly name: string;
  publish(channel: string, message: string): void | Promise<void>;
  /**
   * Calls `onMessage` for every message on `channel` until the returned function is called.
   * `onInterrupted` is called when the broker connection drops: messages may have been lost
   * and none arrive until it is back, so a listener should stop relying on them.
   */
  listen(channel: string, onMessage: (message: string) => void, onInterrupted?: () => void): () => void;
  /** False while the broker connection is known to be down (a new listener would hear nothing). */
  readonly available?: boolean;
  /** Resolves once every (un)subscribe issued so far reached the broker. */
  subscribed?(): Promise<void>;
  /** Rejects while the broker does not answer (readiness, host/metrics/readiness.ts); absent for in-process brokers. */
  ping?(): Promise<void>;
  close(): void | Promise<void>;
}
