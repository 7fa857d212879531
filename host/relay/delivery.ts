/**
 * Writing to one relayed client.
 *
 * A relayed stream's frames supersede each other (the relay protocol, headers.ts): a poll answer
 * is the whole state at its position. So a client whose connection cannot take more bytes is not
 * queued every frame: it keeps only the newest one, written once its connection has room again,
 * and moves to that frame's position, so its Last-Event-ID names what it really received. Bytes
 * that carry no state (keepalives, error notices) are written only to a client with room.
 *
 * "Room" is the host's own buffer for the connection being empty: every byte written so far was
 * taken by the kernel. A connection whose peer does not read fills its kernel buffers first, then
 * the host's; from then on the host holds at most one unsent frame and one pending frame for it,
 * whatever the number of writes.
 */

/** Where a relayed client's bytes go (a Node response in production). */
export interface RelaySink {
  write(bytes: Uint8Array): void;
  /** Bytes written but not yet taken by the kernel. */
  readonly buffered: number;
  readonly closed: boolean;
  /** Called once the client is gone; at once if it already is. */
  onClose(listener: () => void): void;
  /** Ends the response cleanly (shutdown). */
  end(): void;
  /** Cuts the connection (a client too slow to keep up). */
  destroy(): void;
  /** Bytes written after a silence to keep the stream open through proxies; none for a framing without such bytes. */
  readonly keepalive?: Uint8Array | undefined;
}

export class RelayClient {
  readonly sink: RelaySink;
  /** The position of the newest frame this client was given (written or pending). */
  position: number;
  lastWrite: number;
  #pending: Uint8Array | undefined;
  /** Since when the connection has had unsent bytes; undefined while it keeps up. */
  #stuckSince: number | undefined;

  constructor(sink: RelaySink, position: number, now: number) {
    this.sink = sink;
    this.position = position;
    this.lastWrite = now;
  }

  /** Bytes the host holds for this client: unsent ones and the pending frame. */
  get heldBytes(): number {
    return this.sink.buffered + (this.#pending?.byteLength ?? 0);
  }

  get hasPending(): boolean {
    return this.#pending !== undefined;
  }

  /**
   * Gives the client the state at `after`: written now if its connection has room, else kept in
   * place of an older pending frame. Returns true when it superseded one (a coalesced frame).
   */
  advance(bytes: Uint8Array, after: number, now: number): boolean {
    this.position = after;
    if (!this.#congested(now)) {
      this.#write(bytes, now);
      return false;
    }
    const superseded = this.#pending !== undefined;
    this.#pending = bytes;
    return superseded;
  }

  /** Bytes that carry no state: written only if the connection has room; false when dropped. */
  notice(bytes: Uint8Array, now: number): boolean {
    if (this.#congested(now)) return false;
    this.#write(bytes, now);
    return true;
  }

  /** Writes the pending frame if the connection has room now. */
  flush(now: number): void {
    if (this.#pending === undefined || this.#congested(now)) return;
    const bytes = this.#pending;
    this.#pending = undefined;
    this.#write(bytes, now);
  }

  /** How long the connection has had unsent bytes, as last observed. */
  stuckFor(now: number): number {
    return this.#stuckSince === undefined ? 0 : now - this.#stuckSince;
  }

  #congested(now: number): boolean {
    if (this.sink.buffered === 0) {
      this.#stuckSince = undefined;
      return false;
    }
    this.#stuckSince ??= now;
    return true;
  }

  #write(bytes: Uint8Array, now: number): void {
    this.sink.write(bytes);
    this.lastWrite = now;
  }
}
