/**
 * Client-caused events (timeouts, refused bodies) logged at most once per interval and code: a
 * line per event would let any client write log lines at will. The first event after a quiet
 * interval is logged at once with `count: 1`; later ones are summed into one line per interval
 * (the fields of the last of them, and `count`).
 */
import type { HostLogger, LogLevel } from '../log.ts';

export const EVENT_LOG_INTERVAL_MS = 10_000;

interface Pending {
  level: LogLevel;
  msg: string;
  fields: Record<string, unknown>;
  count: number;
}

export class IntervalLog {
  readonly #logger: HostLogger;
  readonly #intervalMs: number;
  /** Codes logged within the current interval, with what happened since. */
  readonly #open = new Map<string, Pending>();

  constructor(logger: HostLogger, intervalMs = EVENT_LOG_INTERVAL_MS) {
    this.#logger = logger;
    this.#intervalMs = intervalMs;
  }

  note(level: LogLevel, msg: string, event: { code: string } & Record<string, unknown>): void {
    const { code, ...fields } = event;
    const pending = this.#open.get(code);
    if (pending) {
      pending.count++;
      pending.fields = fields;
      return;
    }
    this.#logger.log(level, msg, { code, ...fields, count: 1 });
    this.#open.set(code, { level, msg, fields, count: 0 });
    this.#schedule(code);
  }

  #schedule(code: string): void {
    setTimeout(() => {
      const pending = this.#open.get(code);
      if (!pending || pending.count === 0) {
        this.#open.delete(code);
        return;
      }
      this.#logger.log(pending.level, pending.msg, { code, ...pending.fields, count: pending.count, interval_s: this.#intervalMs / 1000 });
      pending.count = 0;
      this.#schedule(code);
    }, this.#intervalMs).unref();
  }
}
