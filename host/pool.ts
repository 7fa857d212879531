/**
 * A pool of guest instances built from one compiled component. A request borrows an instance
 * for its whole exchange (a streaming response holds it until it ends; relayed SSE streams end
 * their guest part at once, host/relay/) and returns it after;
 * instances are reused because a fresh one is slow until its inline caches warm up.
 * An instance that trapped is discarded: its state can no longer be trusted.
 *
 * As a safety net (not a fix: docs/memory.md), an instance is retired after `maxRequests`
 * exchanges or once its linear memory passes `maxMemoryBytes`, the practice of wasmtime's
 * `--max-instance-reuse-count` and of process managers' max-requests. A linear memory never
 * shrinks, so retiring the instance is the only way to give that memory back; for the same reason
 * instances beyond `min` that stay idle for `idleMs` are retired (`retireIdle()`, called on a timer
 * by host/app.ts), so a host gives its memory back when the load stops.
 */
import { runInExchange } from './exchange-scope.ts';
import { describeError, type HostLogger } from './log.ts';

export interface GuestInstance {
  handle(request: unknown, responseOut: unknown): Promise<void>;
  /** What the instance holds now: live host resource handles, captured host objects, linear memory. */
  stats(): InstanceStats;
}

export interface InstanceStats {
  /** Handles alive in the instance's resource tables (own and borrowed, every resource type). */
  handles: number;
  /** Host objects the glue still maps to a handle (what a handle that is never dropped keeps alive). */
  captured: number;
  /** Entries of jco's write-only `_createdReps` sets (zero once the patch removes them). */
  createdReps: number;
  /** The core module's linear memory (SpiderMonkey's heap lives in it; it never shrinks). */
  memoryBytes: number;
}

export interface PoolOptions {
  /** instances created at start */
  min: number;
  /** upper bound on instances alive at once (with --stream-relay off, each open stream holds one) */
  max: number;
  /** exchanges after which an instance is retired (0: never) */
  maxRequests?: number;
  /** linear memory in bytes past which an instance is retired after its exchange (0: never) */
  maxMemoryBytes?: number;
  /** milliseconds after which an idle instance beyond `min` is retired by `retireIdle()` (0: never) */
  idleMs?: number;
  /** the clock `idleMs` is measured on (tests) */
  now?: () => number;
}

type Retirement = { reason: 'max_requests' | 'max_memory' | 'idle'; requests: number; memoryBytes: number };

export class InstancePool {
  readonly #create: () => Promise<GuestInstance>;
  readonly #options: PoolOptions;
  readonly #logger: HostLogger;
  /** Idle instances, most recently used last (`#acquire` pops it; `retireIdle` takes from the front). */
  readonly #idle: GuestInstance[] = [];
  readonly #idleSince = new Map<GuestInstance, number>();
  /** Every instance alive (idle or busy), with the exchanges it has served. */
  readonly #served = new Map<GuestInstance, number>();
  #retired = 0;
  #created = 0;
  #discarded = 0;
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

  /**
   * `runs`: exchanges served since start (each request, and each relayed stream poll); `created`:
   * instances created; `discarded`: dropped after a trap; `retired`: by the safety net.
   */
  get stats(): { alive: number; busy: number; idle: number; waiting: number; runs: number; created: number; discarded: number; retired: number } {
    return {
      alive: this.#alive,
      busy: this.#busy,
      idle: this.#idle.length,
      waiting: this.#waiting.length,
      runs: this.#runs,
      created: this.#created,
      discarded: this.#discarded,
      retired: this.#retired,
    };
  }

  async warm(): Promise<void> {
    while (this.#alive < this.#options.min) {
      this.#alive++;
      try {
        this.#toIdle(await this.#spawn());
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
    this.#served.set(instance, (this.#served.get(instance) ?? 0) + 1);
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

  /** Retires the instances beyond `min` idle for `idleMs` or longer, least recently used first; returns how many. */
  retireIdle(): number {
    const { idleMs = 0, min } = this.#options;
    if (idleMs <= 0) return 0;
    const now = this.#now();
    let retired = 0;
    while (this.#alive > min && this.#idle.length > 0 && now - (this.#idleSince.get(this.#idle[0]!) ?? now) >= idleMs) {
      const instance = this.#idle.shift()!;
      this.#idleSince.delete(instance);
      this.#retire(instance, { reason: 'idle', requests: this.#served.get(instance) ?? 0, memoryBytes: instance.stats().memoryBytes });
      retired++;
    }
    return retired;
  }

  /** Each live instance's handles and memory (tests, the soak benchmark's sampling). */
  instanceStats(): InstanceStats[] {
    return [...this.#served.keys()].map((instance) => instance.stats());
  }

  async #spawn(): Promise<GuestInstance> {
    const instance = await this.#create();
    this.#created++;
    this.#served.set(instance, 0);
    return instance;
  }

  /** Why `instance` should be retired now, if it should. */
  #retirement(instance: GuestInstance): Retirement | undefined {
    const { maxRequests = 0, maxMemoryBytes = 0 } = this.#options;
    const requests = this.#served.get(instance) ?? 0;
    if (maxRequests > 0 && requests >= maxRequests) return { reason: 'max_requests', requests, memoryBytes: instance.stats().memoryBytes };
    if (maxMemoryBytes > 0) {
      const memoryBytes = instance.stats().memoryBytes;
      if (memoryBytes > maxMemoryBytes) return { reason: 'max_memory', requests, memoryBytes };
    }
    return undefined;
  }

  /** Creates an instance for a waiting request, or to keep `min` instances ready. */
  #replace(): void {
    const waiter = this.#waiting.shift();
    if (!waiter && this.#alive >= this.#options.min) return;
    this.#alive++;
    this.#spawn().then(
      (fresh) => {
        const next = waiter ?? this.#waiting.shift();
        if (next) next(fresh);
        else this.#toIdle(fresh);
      },
      (error: unknown) => {
        this.#alive--;
        this.#logger.log('error', 'could not create a guest instance', { code: 'guest_instantiate_failed', error: describeError(error) });
      },
    );
  }

  get #now(): () => number {
    return this.#options.now ?? Date.now;
  }

  #toIdle(instance: GuestInstance): void {
    this.#idle.push(instance);
    this.#idleSince.set(instance, this.#now());
  }

  #retire(instance: GuestInstance, retirement: Retirement): void {
    this.#served.delete(instance);
    this.#alive--;
    this.#retired++;
    this.#logger.log('info', 'retired a guest instance', {
      code: 'guest_instance_retired',
      reason: retirement.reason,
      requests: retirement.requests,
      memoryMiB: Math.round(retirement.memoryBytes / 1_048_576),
    });
  }

  async #acquire(): Promise<GuestInstance> {
    const ready = this.#idle.pop();
    if (ready) {
      this.#idleSince.delete(ready);
      return ready;
    }
    if (this.#alive < this.#options.max) {
      this.#alive++;
      try {
        return await this.#spawn();
      } catch (error) {
        this.#alive--;
        throw error;
      }
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  #release(instance: GuestInstance, healthy: boolean): void {
    const retirement = healthy ? this.#retirement(instance) : undefined;
    if (retirement) {
      this.#retire(instance, retirement);
      this.#replace();
    } else if (!healthy) {
      this.#served.delete(instance);
      this.#alive--;
      this.#discarded++;
      this.#logger.log('warn', 'discarded a guest instance after a trap', { code: 'guest_instance_discarded' });
      this.#replace();
    } else {
      const waiter = this.#waiting.shift();
      if (waiter) waiter(instance);
      else this.#toIdle(instance);
    }
    if (this.#busy === 0) for (const w of this.#idleWaiters.splice(0)) w();
  }
}
