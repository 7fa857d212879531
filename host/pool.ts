/**
 * A pool of guest instances built from one compiled component. A request borrows an instance
 * for its whole exchange (a streaming response holds it until it ends; relayed SSE streams end
 * their guest part at once, host/relay/) and returns it after;
 * instances are reused because a fresh one is slow until its inline caches warm up.
 * An instance that trapped is discarded: its state can no longer be trusted.
 */
import { runInExchange } from './exchange-scope.ts';
import { describeError, type HostLogger } from './log.ts';

export interface GuestInstance {
  handle(request: unknown, responseOut: unknown): Promise<void>;
}

export interface PoolOptions {
  /** instances created at start */
  min: number;
  /** upper bound on instances alive at once (with --stream-relay off, each open stream holds one) */
  max: number;
}

export class InstancePool {
  readonly #create: () => Promise<GuestInstance>;
  readonly #options: PoolOptions;
  readonly #logger: HostLogger;
  readonly #idle: GuestInstance[] = [];
  readonly #waiting: Array<(instance: GuestInstance) => void> = [];
  #alive = 0;
  #busy = 0;
  #runs = 0;
  #idleWaiters: Array<() => void> = [];

  constructor(create: () => Promise<GuestInstance>, options: PoolOptions, logger: HostLogger) {
    this.#create = create;
    this.#options = options;
    this.#logger = logger;
  }

  /** `runs`: exchanges served since start (each request, and each relayed stream poll). */
  get stats(): { alive: number; busy: number; idle: number; waiting: number; runs: number } {
    return { alive: this.#alive, busy: this.#busy, idle: this.#idle.length, waiting: this.#waiting.length, runs: this.#runs };
  }

  async warm(): Promise<void> {
    while (this.#alive < this.#options.min) {
      this.#alive++;
      try {
        this.#idle.push(await this.#create());
      } catch (error) {
        this.#alive--;
        throw error;
      }
    }
  }

  /** Runs `fn` with an instance; the instance is discarded if `fn` throws (a trap). */
  async run(fn: (instance: GuestInstance) => Promise<void>): Promise<void> {
    const instance = await this.#acquire();
    this.#busy++;
    this.#runs++;
    let healthy = true;
    try {
      // Imports the guest calls during this exchange can reach its scope (exchange-scope.ts).
      await runInExchange(() => fn(instance));
    } catch (error) {
      healthy = false;
      throw error;
    } finally {
      this.#busy--;
      this.#release(instance, healthy);
    }
  }

  /** Resolves when no instance is busy. */
  idle(): Promise<void> {
    if (this.#busy === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  async #acquire(): Promise<GuestInstance> {
    const ready = this.#idle.pop();
    if (ready) return ready;
    if (this.#alive < this.#options.max) {
      this.#alive++;
      try {
        return await this.#create();
      } catch (error) {
        this.#alive--;
        throw error;
      }
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  #release(instance: GuestInstance, healthy: boolean): void {
    if (!healthy) {
      this.#alive--;
      this.#logger.log('warn', 'discarded a guest instance after a trap', { code: 'guest_instance_discarded' });
      const waiter = this.#waiting.shift();
      if (waiter) {
        this.#alive++;
        this.#create().then(waiter, (error: unknown) => {
          this.#alive--;
          this.#logger.log('error', 'could not create a guest instance', { code: 'guest_instantiate_failed', error: describeError(error) });
        });
      }
    } else {
      const waiter = this.#waiting.shift();
      if (waiter) waiter(instance);
      else this.#idle.push(instance);
    }
    if (this.#busy === 0) for (const w of this.#idleWaiters.splice(0)) w();
  }
}
