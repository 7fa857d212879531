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
 *
 * The same pending frame waits for its client's share of the relay's writes (client-share.ts): a
 * frame is written only when `take` grants it a token, else it is kept as the newest pending one.
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

/** Asks for a token of the client's share; false when the frame must wait. */
export type TakeToken = () => boolean;

export class RelayClient {
  readonly sink: RelaySink;
  /** The client this stream belongs to (its key, host/admission/client-limit.ts). */
  readonly key: string;
  /** Holds a pending frame for want of its client's tokens (the connection had room). */
  owed = false;
  /** The position of the newest frame this client was given (written or pending). */
  position: number;
  lastWrite: number;
  #pending: Uint8Array | undefined;
  /** Since when the connection has had unsent bytes; undefined while it keeps up. */
  #stuckSince: number | undefined;

  constructor(sink: RelaySink, key: string, position: number, now: number) {
    this.sink = sink;
    this.key = key;
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
   * Gives the client the state at `after`: written now if its connection has room and `take`
   * grants it, else kept in place of an older pending frame. Returns true when it superseded one
   * (a coalesced frame); `owed` tells whether it waits for a token.
   */
  advance(bytes: Uint8Array, after: number, now: number, take: TakeToken): boolean {
    this.position = after;
    const superseded = this.#pending !== undefined;
    if (!this.#congested(now) && take()) {
      // The newest state: an older pending frame must never follow it.
      this.#pending = undefined;
      this.#write(bytes, now);
    } else this.#pending = bytes;
    return superseded;
  }

  /** Bytes that carry no state: written only if the connection has room; false when dropped. */
  notice(bytes: Uint8Array, now: number): boolean {
    if (this.#congested(now)) return false;
    this.#write(bytes, now);
    return true;
  }

  /** Writes the pending frame if the connection has room now and `take` grants it. */
  flush(now: number, take: TakeToken): void {
    if (this.#pending === undefined || this.#congested(now) || !take()) return;
    const bytes = this.#pending;
    this.#pending = undefined;
    this.#write(bytes, now);
  }

  /** The connection has room (the host holds none of its bytes). */
  hasRoom(now: number): boolean {
    return !this.#congested(now);
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
