/** A realtime broker as the host sees it: publish, and listen with a callback. */
export interface PubSubBackend {
  readonly name: string;
  publish(channel: string, message: string): void | Promise<void>;
  /** Calls `onMessage` for every message on `channel` until the returned function is called. */
  listen(channel: string, onMessage: (message: string) => void): () => void;
  close(): void | Promise<void>;
}
