/**
 * Carries out WIT `erasure.scrub` for one host over its backend's single attempt
 * (StorageBackend.scrub). Each attempt answers at once (SQLite: a checkpoint that does not wait in
 * the busy handler), so the event loop is never held; while other readers hold it back the call
 * tries again after short waits, up to `waitMs`. Past that it returns, and one background timer
 * keeps trying every `retryMs` until an attempt succeeds (`store_scrub_deferred`, then
 * `store_scrubbed`): the erasure itself has committed, and its leftovers go as soon as the
 * readers let go. The maintenance pass scrubs too (removals of retention and expiry).
 */
import { describeError, type HostLogger } from '../log.ts';
import type { StorageBackend } from './types.ts';

export interface ScrubberOptions {
  /** How long a call keeps trying before it leaves the rest to the background retry (ms). */
  waitMs: number;
  /** How often the background retry tries (ms). */
  retryMs: number;
}

const DEFAULTS: ScrubberOptions = { waitMs: 1_000, retryMs: 2_000 };
/** The first wait between attempts; it doubles up to MAX_PAUSE_MS. */
const FIRST_PAUSE_MS = 5;
const MAX_PAUSE_MS = 100;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class Scrubber {
  readonly #storage: Pick<StorageBackend, 'scrub'>;
  readonly #logger: HostLogger;
  readonly #options: ScrubberOptions;
  #retry: ReturnType<typeof setTimeout> | undefined;
  #deferredAt = 0;
  #stopped = false;

  constructor(storage: Pick<StorageBackend, 'scrub'>, logger: HostLogger, options: Partial<ScrubberOptions> = {}) {
    this.#storage = storage;
    this.#logger = logger;
    this.#options = { ...DEFAULTS, ...options };
  }

  /** Scrubs now, or within `waitMs`, or hands it to the background retry. Store failures propagate. */
  async scrub(): Promise<void> {
    if (!this.#storage.scrub) return;
    const deadline = performance.now() + this.#options.waitMs;
    for (let wait = FIRST_PAUSE_MS; ; wait = Math.min(wait * 2, MAX_PAUSE_MS)) {
      if ((await this.#storage.scrub()) === 'done') return this.#done();
      if (performance.now() + wait > deadline) break;
      await pause(wait);
    }
    this.#defer();
  }

  #done(): void {
    if (this.#retry === undefined) return;
    clearTimeout(this.#retry);
    this.#retry = undefined;
    this.#logger.log('info', 'removed data scrubbed from the store files after a wait', { code: 'store_scrubbed', waited_ms: Math.round(performance.now() - this.#deferredAt) });
  }

  #defer(): void {
    if (this.#retry !== undefined || this.#stopped) return;
    this.#deferredAt = performance.now();
    this.#logger.log('warn', 'other readers of the store hold back the scrub of removed data; trying again in the background', {
      code: 'store_scrub_deferred',
      retry_ms: this.#options.retryMs,
    });
    const attempt = async () => {
      if (this.#stopped) return;
      try {
        if ((await this.#storage.scrub?.()) === 'done') return this.#done();
      } catch (error) {
        this.#logger.log('warn', 'the scrub of removed data failed; trying again', { code: 'store_scrub_deferred', error: describeError(error) });
      }
      if (this.#stopped) return;
      this.#retry = setTimeout(() => void attempt(), this.#options.retryMs);
      this.#retry.unref();
    };
    this.#retry = setTimeout(() => void attempt(), this.#options.retryMs);
    this.#retry.unref();
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#retry);
    this.#retry = undefined;
  }
}
