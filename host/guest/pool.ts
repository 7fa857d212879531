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
 *
 * Admission (host/admission/): the pool never grows past `max` (derived from the memory budget);
 * an exchange that finds no instance waits in its lane's bounded queue (served by client in
 * turn) for at most a deadline and is refused beyond either. Long-lived exchanges (the `stream` lane: gRPC calls, SSE held by
 * the guest) hold at most `streamMax` instances, so ordinary requests always keep the rest.
 */
import type { AdmissionLimits } from '../admission/limits.ts';
import { RefusalLog } from '../admission/refusal-log.ts';
import { AdmissionRefused, type Lane, type LaneQueues, type RefusalReason } from '../admission/wait-queue.ts';
import { runInExchange } from '../net/exchange-scope.ts';
import { describeError, type HostLogger } from '../log.ts';

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

export interface PoolOptions extends AdmissionLimits {
  /** instances created at start */
  min: number;
  /** exchanges after which an instance is retired (0: never) */
  maxRequests?: number;
  /** linear memory in bytes past which an instance is retired after its exchange (0: never) */
  maxMemoryBytes?: number;
  /** milliseconds after which an idle instance beyond `min` is retired by `retireIdle()` (0: never) */
  idleMs?: number;
  /** the clock `idleMs` is measured on (tests) */
  now?: () => number;
  /** called after instances were retired or discarded (host/admission/reclaim.ts gives their memory back) */
  onInstancesEnded?: () => void;
  /** where exchanges wait for an instance, one queue per lane (host/admission/policy.ts makes them) */
  queues: LaneQueues<GuestInstance>;
}

export interface RunOptions {
  lane?: Lane;
  /** aborted when the client goes away: a waiting exchange leaves the queue */
  signal?: AbortSignal;
  /** the client's key (src/contract/client-key.ts): the queue serves clients in turn */
  client?: string;
}

type Retirement = { reason: 'max_requests' | 'max_memory' | 'idle'; requests: number; memoryBytes: number };
type Refusals = Record<RefusalReason, number>;

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
  readonly #queues: LaneQueues<GuestInstance>;
  readonly #refused: Refusals = { queue_full: 0, deadline: 0, departed: 0, stopping: 0 };
  readonly #refusalLog: RefusalLog;
  #alive = 0;
  #busy = 0;
  #streamBusy = 0;
  #stopping = false;
  #runs = 0;
  #idleWaiters: Array<() => void> = [];

  constructor(create: () => Promise<GuestInstance>, options: PoolOptions, logger: HostLogger) {
    this.#create = create;
    this.#options = { ...options };
    this.#logger = logger;
    this.#refusalLog = new RefusalLog(logger);
    this.#queues = options.queues;
    this.setLimits(options);
  }

  /** Sets the admission limits (host/app.ts derives them from the memory budget once instances are measured). */
  setLimits(limits: AdmissionLimits): void {
    Object.assign(this.#options, limits);
    const queue = { maxLength: limits.queueLength ?? Infinity, maxWaitMs: limits.queueWaitMs ?? Infinity };
    this.#queues.request.options = queue;
    this.#queues.stream.options = queue;
    this.#dispatch();
  }

  get limits(): Required<AdmissionLimits> {
    const { max, streamMax = max, queueLength = Infinity, queueWaitMs = Infinity } = this.#options;
    return { max, streamMax, queueLength, queueWaitMs };
  }

  /**
   * `runs`: exchanges served since start (each request, and each relayed stream poll); `created`:
   * instances created; `discarded`: dropped after a trap; `retired`: by the safety net;
   * `refused`: exchanges that got no instance, by reason.
   */
  get stats(): {
    alive: number;
    busy: number;
    streamBusy: number;
    idle: number;
    waiting: number;
    runs: number;
    created: number;
    discarded: number;
    retired: number;
    refused: Refusals;
  } {
    return {
      alive: this.#alive,
      busy: this.#busy,
      streamBusy: this.#streamBusy,
      idle: this.#idle.length,
      waiting: this.#queues.request.length + this.#queues.stream.length + this.#queues.internal.length,
      runs: this.#runs,
      created: this.#created,
      discarded: this.#discarded,
      retired: this.#retired,
      refused: { ...this.#refused },
    };
  }

  /** Creates `min` instances; `onInstance` sees each (host/app.ts measures their size). */
  async warm(onInstance?: (count: number, instance: GuestInstance) => void): Promise<void> {
    while (this.#alive < this.#options.min) {
      this.#alive++;
      try {
        const instance = await this.#spawn();
        this.#toIdle(instance);
        onInstance?.(this.#alive, instance);
      } catch (error) {
        this.#alive--;
        throw error;
      }
    }
  }

  /**
   * Runs `fn` with an instance; the instance is discarded if `fn` throws (a trap). Rejects with
   * AdmissionRefused when the exchange got no instance (queue full, deadline, client gone, stopping).
   */
  async run(fn: (instance: GuestInstance) => Promise<void>, options: RunOptions = {}): Promise<void> {
    const lane = options.lane ?? 'internal';
    let instance: GuestInstance;
    try {
      instance = await this.#acquire(lane, options.signal, options.client);
    } catch (error) {
      if (error instanceof AdmissionRefused) this.#noteRefusal(error.reason);
      throw error;
    }
    this.#busy++;
    this.#runs++;
    this.#served.set(instance, (this.#served.get(instance) ?? 0) + 1);
    let healthy = true;
    try {
      // Imports the guest calls during this exchange can reach its scope (host/net/exchange-scope.ts).
      await runInExchange(() => fn(instance));
    } catch (error) {
      healthy = false;
      throw error;
    } finally {
      this.#busy--;
      if (lane === 'stream') this.#streamBusy--;
      this.#release(instance, healthy);
    }
  }

  /** Refuses every exchange waiting for an instance, and from now on any that would have to wait (shutdown); the host's own calls keep waiting. */
  refuseWaiting(): void {
    this.#stopping = true;
    this.#queues.request.refuseAll('stopping');
    this.#queues.stream.refuseAll('stopping');
    this.#refusalLog.close();
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
    if (retired > 0) this.#options.onInstancesEnded?.();
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

  get #now(): () => number {
    return this.#options.now ?? Date.now;
  }

  #toIdle(instance: GuestInstance): void {
    this.#idle.push(instance);
    this.#idleSince.set(instance, this.#now());
  }

  #takeIdle(): GuestInstance | undefined {
    const ready = this.#idle.pop();
    if (ready) this.#idleSince.delete(ready);
    return ready;
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

  #noteRefusal(reason: RefusalReason): void {
    this.#refused[reason]++;
    // Overload is logged (once per interval); a client that left or a shutdown is not.
    if (reason === 'queue_full' || reason === 'deadline') this.#refusalLog.note(reason);
  }

  /** Whether an exchange of `lane` may take an instance now (the stream lane has its own bound). */
  #laneOpen(lane: Lane): boolean {
    return lane !== 'stream' || this.#streamBusy < this.limits.streamMax;
  }

  async #acquire(lane: Lane, signal: AbortSignal | undefined, client: string | undefined): Promise<GuestInstance> {
    // Behind earlier waiters of the same lane (served by client in turn), unless none waits.
    if (this.#laneOpen(lane) && this.#queues[lane].length === 0) {
      const ready = this.#takeIdle();
      if (ready) {
        if (lane === 'stream') this.#streamBusy++;
        return ready;
      }
      if (this.#alive < this.#options.max) {
        this.#alive++;
        if (lane === 'stream') this.#streamBusy++;
        try {
          return await this.#spawn();
        } catch (error) {
          this.#alive--;
          if (lane === 'stream') this.#streamBusy--;
          throw error;
        }
      }
    }
    if (this.#stopping && lane !== 'internal') throw new AdmissionRefused('stopping');
    return this.#queues[lane].enter(signal, client);
  }

  /** The lane whose first waiter is served next: the host's own calls, then ordinary requests, then streams within their share. */
  #nextLane(): Lane | undefined {
    if (this.#queues.internal.length > 0) return 'internal';
    if (this.#queues.request.length > 0) return 'request';
    if (this.#queues.stream.length > 0 && this.#laneOpen('stream')) return 'stream';
    return undefined;
  }

  /** Gives idle (or new, up to `max`) instances to waiting exchanges. */
  #dispatch(): void {
    for (let lane = this.#nextLane(); lane !== undefined; lane = this.#nextLane()) {
      const ready = this.#takeIdle();
      if (!ready && this.#alive >= this.#options.max) break;
      const waiter = this.#queues[lane].take()!;
      if (lane === 'stream') this.#streamBusy++;
      if (ready) {
        waiter.give(ready);
        continue;
      }
      this.#alive++;
      const claimed = lane;
      this.#spawn().then(
        (fresh) => waiter.give(fresh),
        (error: unknown) => {
          this.#alive--;
          if (claimed === 'stream') this.#streamBusy--;
          this.#logger.log('error', 'could not create a guest instance', { code: 'guest_instantiate_failed', error: describeError(error) });
          waiter.fail(error instanceof Error ? error : new Error(String(error)));
        },
      );
    }
  }

  /** Creates instances to keep `min` ready after retirements and discards. */
  #keepMin(): void {
    while (this.#alive < this.#options.min) {
      this.#alive++;
      this.#spawn().then(
        (fresh) => {
          this.#toIdle(fresh);
          this.#dispatch();
        },
        (error: unknown) => {
          this.#alive--;
          this.#logger.log('error', 'could not create a guest instance', { code: 'guest_instantiate_failed', error: describeError(error) });
        },
      );
    }
  }

  #release(instance: GuestInstance, healthy: boolean): void {
    const retirement = healthy ? this.#retirement(instance) : undefined;
    if (retirement) {
      this.#retire(instance, retirement);
      this.#options.onInstancesEnded?.();
    } else if (!healthy) {
      this.#served.delete(instance);
      this.#alive--;
      this.#discarded++;
      this.#logger.log('warn', 'discarded a guest instance after a trap', { code: 'guest_instance_discarded' });
      this.#options.onInstancesEnded?.();
    } else {
      this.#toIdle(instance);
    }
    this.#dispatch();
    this.#keepMin();
    if (this.#busy === 0) for (const w of this.#idleWaiters.splice(0)) w();
  }
}
