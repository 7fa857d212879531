/**
 * Readiness: whether this host should get traffic. Not ready while a dependency (the store, the
 * realtime broker with --realtime redis) does not answer a cheap read within `timeoutMs`, and
 * from the moment a graceful stop begins. A result is reused for `cacheMs`, and concurrent
 * probes share one check, so however often a prober asks, the store sees at most one read per
 * dependency per `cacheMs`.
 */

/** One dependency and its cheapest read (a store's head sequence, a broker's PING). */
export interface DependencyCheck {
  name: string;
  run(): unknown;
}

export interface ReadinessReport {
  ready: boolean;
  stopping: boolean;
  /** Each dependency: answered (true) or failed / timed out (false). */
  dependencies: Record<string, boolean>;
}

export interface ReadinessOptions {
  timeoutMs?: number;
  cacheMs?: number;
  now?: () => number;
}

export const DEFAULT_CHECK_TIMEOUT_MS = 1_000;
export const DEFAULT_CHECK_CACHE_MS = 1_000;

async function answers(check: DependencyCheck, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
    timer.unref();
  });
  try {
    const run = (async () => {
      await check.run();
      return true;
    })().catch(() => false);
    return await Promise.race([run, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

export class Readiness {
  readonly #checks: readonly DependencyCheck[];
  readonly #timeoutMs: number;
  readonly #cacheMs: number;
  readonly #now: () => number;
  #stopping = false;
  #last: { at: number; dependencies: Record<string, boolean> } | undefined;
  #running: Promise<Record<string, boolean>> | undefined;

  constructor(checks: readonly DependencyCheck[], options: ReadinessOptions = {}) {
    this.#checks = checks;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS;
    this.#cacheMs = options.cacheMs ?? DEFAULT_CHECK_CACHE_MS;
    this.#now = options.now ?? (() => performance.now());
  }

  /** From now on the host is not ready (a graceful stop began); never undone. */
  stop(): void {
    this.#stopping = true;
  }

  get stopping(): boolean {
    return this.#stopping;
  }

  /** Each dependency's state, from the cache when fresh. */
  dependencies(): Promise<Record<string, boolean>> {
    const last = this.#last;
    if (last !== undefined && this.#now() - last.at < this.#cacheMs) return Promise.resolve(last.dependencies);
    this.#running ??= Promise.all(this.#checks.map(async (check) => [check.name, await answers(check, this.#timeoutMs)] as const)).then((entries) => {
      const dependencies = Object.fromEntries(entries);
      this.#last = { at: this.#now(), dependencies };
      this.#running = undefined;
      return dependencies;
    });
    return this.#running;
  }

  async report(): Promise<ReadinessReport> {
    if (this.#stopping) return { ready: false, stopping: true, dependencies: {} };
    const dependencies = await this.dependencies();
    return { ready: !this.#stopping && Object.values(dependencies).every(Boolean), stopping: this.#stopping, dependencies };
  }
}
