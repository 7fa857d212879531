/**
 * Cuts a response whose client stops reading: its writes are waiting (HTTP/2 flow-control window
 * at 0, a socket whose buffer does not drain) and nothing drains for `sendTimeoutMs`. Like nginx's
 * `send_timeout`, the clock runs only while the response waits, so a slow reader that keeps reading
 * is never cut. Cutting (RST_STREAM on HTTP/2, closing the socket on HTTP/1.1) wakes a guest blocked
 * on the write, so its instance goes back to the pool.
 */
import http2 from 'node:http2';
import type { IntervalLog } from './interval-log.ts';
import type { ExchangeLimits } from './limits.ts';

/** The part of a Node response this watch needs (ServerResponse and Http2ServerResponse both have it). */
interface WatchedResponse {
  destroy(): unknown;
  once(event: 'finish' | 'close', listener: () => void): unknown;
  readonly writableFinished: boolean;
  /** The HTTP/2 stream of an Http2ServerResponse. */
  readonly stream?: http2.ServerHttp2Stream;
}

export class SendTimeout {
  readonly #res: WatchedResponse;
  readonly #ms: number;
  readonly #events: IntervalLog | undefined;
  #timer: NodeJS.Timeout | undefined;
  #watching = false;
  #closed = false;

  constructor(res: WatchedResponse, ms: number, events?: IntervalLog) {
    this.#res = res;
    this.#ms = ms;
    this.#events = events;
  }

  /** A write was refused (the response asks the writer to wait): start the clock unless it runs. */
  waiting(): void {
    if (this.#ms <= 0 || this.#timer !== undefined || this.#closed) return;
    // Only responses that ever wait pay for a listener.
    if (!this.#watching) {
      this.#watching = true;
      this.#res.once('close', () => {
        this.#closed = true;
        this.drained();
      });
    }
    this.#timer = setTimeout(() => this.#cut(), this.#ms);
    this.#timer.unref();
  }

  /** The response drained (or closed): stop the clock. */
  drained(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** The body ended: what is still buffered must reach the client within the same limit. */
  ended(): void {
    if (this.#res.writableFinished) return;
    this.#res.once('finish', () => this.drained());
    this.waiting();
  }

  #cut(): void {
    this.#timer = undefined;
    if (this.#closed || this.#res.writableFinished) return;
    this.#events?.note('info', 'a client did not read its response; the response was cut', { code: 'http_send_timeout', timeout_s: this.#ms / 1000 });
    // HTTP/2: RST_STREAM CANCEL (RFC 9113 §7), the connection's other streams go on; HTTP/1.1: the socket closes.
    if (this.#res.stream) this.#res.stream.close(http2.constants.NGHTTP2_CANCEL);
    else this.#res.destroy();
  }
}

/** The send timeout of one response; none when the limit is off. */
export function sendTimeoutFor(res: WatchedResponse, limits: ExchangeLimits | undefined): SendTimeout | undefined {
  return limits && limits.sendTimeoutMs > 0 ? new SendTimeout(res, limits.sendTimeoutMs, limits.events) : undefined;
}
