/**
 * Logs refused exchanges at most once per interval: under overload a line per refusal would
 * itself be the flood (and a client could write log lines at will). The first refusal after a
 * quiet interval is logged at once; later ones are summed into one line per interval.
 */
import type { HostLogger } from '../log.ts';
import type { RefusalReason } from './wait-queue.ts';

export const REFUSAL_LOG_INTERVAL_MS = 10_000;

export class RefusalLog {
  readonly #logger: HostLogger;
  readonly #intervalMs: number;
  #pending: Partial<Record<RefusalReason, number>> = {};
  #timer: NodeJS.Timeout | undefined;

  constructor(logger: HostLogger, intervalMs = REFUSAL_LOG_INTERVAL_MS) {
    this.#logger = logger;
    this.#intervalMs = intervalMs;
  }

  note(reason: RefusalReason): void {
    this.#pending[reason] = (this.#pending[reason] ?? 0) + 1;
    if (this.#timer !== undefined) return;
    this.#flush();
  }

  close(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #flush(): void {
    const counts = this.#pending;
    this.#pending = {};
    const refused = Object.values(counts).reduce((n, c) => n + c, 0);
    if (refused === 0) {
      this.#timer = undefined;
      return;
    }
    this.#logger.log('warn', 'refused exchanges: no guest instance free and the wait queue full or its deadline passed', {
      code: 'admission_refused',
      refused,
      ...counts,
      interval_s: this.#intervalMs / 1000,
    });
    this.#timer = setTimeout(() => this.#flush(), this.#intervalMs);
    this.#timer.unref();
  }
}
