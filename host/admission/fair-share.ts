/**
 * Each client's fair share of the guest while other clients are active: at most
 * `max(1, floor(capacity / active))` ordinary guest runs at once, and at most `1 / active` of the
 * guest's recent time (an average over about `windowMs`; #advance), light clients' unused parts
 * given to the others (share()). A request past either waits
 * its turn in its client's own line, holding no instance, and starts as the client's earlier runs
 * end or its recent share falls back. A client alone is never held back (work-conserving: it gets
 * every instance), as Netflix concurrency-limits' partitions lend an unused share to whoever wants it.
 *
 * Why the time as well as the count: the guests of every client share one event loop per thread,
 * and a guest that answers synchronously (SQLite) runs to its end once started, so a client's
 * share of the CPU is the time its runs take, not how many it has going. One HTTP/2 connection of
 * 300 streams of uncached GETs kept one run going back to back, and its runs took the CPU from
 * four ordinary users whose browsers wait between requests (they kept 69% of their throughput;
 * bounding the attacker to one run at once changed nothing). Its time is now bounded as fair
 * queuing bounds a flow's: by its share of the server, whatever its backlog. The bound holds even
 * when the others leave part of theirs unused: that room keeps their answers prompt. The per-client
 * exchange limit (client-limit.ts) bounds what a client holds open, not what it runs.
 *
 * Active: a client with a run going or waiting, or one that ended within `activeMs` (a person's
 * browser between two requests is still there). The client is keyed as client-limit.ts keys it
 * (the address the host determines, IPv6 per /64). Long-lived exchanges (the `stream` lane: gRPC,
 * SSE) are not counted here: the pool's streaming share bounds them. Each worker thread counts
 * its own clients.
 */
import { AdmissionRefused } from './wait-queue.ts';

/** How long a client counts as active after its last run ended. */
export const ACTIVE_MS = 1_000;
/** The time constant of a client's recent busy share: short, so a client that finds company pauses briefly. */
export const WINDOW_MS = 250;
/** How long a census of light clients is reused while the active clients stay as many. */
const CENSUS_REUSE_MS = 1;

export interface FairShareOptions {
  /** Guest runs that may go on at once in all (the pool's instance limit). */
  capacity: () => number;
  activeMs?: number;
  windowMs?: number;
  /** the clock both are measured on (tests) */
  now?: () => number;
  /** Called when a run must wait for its client's turn (the server logs it once per interval). */
  onDelay?: (client: string, share: Share) => void;
}

/** What one client may have now. */
export interface Share {
  /** runs going at once */
  runs: number;
  /** part of the time with a run going (recent) */
  time: number;
  /** clients active */
  active: number;
}

export interface FairShareStats {
  /** Runs that waited for their client's turn, since start. */
  delayed: number;
  /** Runs waiting for their client's turn now. */
  waiting: number;
  /** Clients active now. */
  active: number;
}

interface Census {
  at: number;
  active: number;
  /** a part of the time below which a client is light */
  lightBelow: number;
  light: number;
  lightTime: number;
}

interface Client {
  running: number;
  waiting: Array<() => void>;
  /** when the client was last seen (a run asked for, started or ended) */
  touched: number;
  /** its part of the recent guest time (0..1), as of `measured`: see #advance */
  busy: number;
  measured: number;
  /** The census that counted it light, and the part it counted (share() takes it out for the asker). */
  lightIn?: Census;
  lightBusy: number;
}

const ALONE: Omit<Share, 'active'> = { runs: Number.POSITIVE_INFINITY, time: 1 };

export class FairShare {
  readonly #capacity: () => number;
  readonly #activeMs: number;
  readonly #windowMs: number;
  readonly #now: () => number;
  readonly #onDelay: FairShareOptions['onDelay'];
  /** Active clients, least recently touched first (so the stale ones are pruned from the front). */
  readonly #clients = new Map<string, Client>();
  /** Clients with runs waiting. */
  readonly #backlogged = new Set<string>();
  /** Clients with runs going, and how many runs go in all. */
  readonly #running = new Set<Client>();
  #runs = 0;
  #delayed = 0;
  #waiting = 0;
  #timer: NodeJS.Timeout | undefined;
  /** The last census of light clients (it takes a pass over the active clients). */
  #counted: Census | undefined;

  constructor(options: FairShareOptions) {
    this.#capacity = options.capacity;
    this.#activeMs = options.activeMs ?? ACTIVE_MS;
    this.#windowMs = options.windowMs ?? WINDOW_MS;
    this.#now = options.now ?? performance.now.bind(performance);
    this.#onDelay = options.onDelay;
  }

  /** Runs `fn` once `key`'s client is within its share; rejects with AdmissionRefused('departed') if `signal` aborts first. */
  run<T>(key: string, fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const client = this.#touch(key);
    const share = this.share(key);
    if (client.waiting.length === 0 && this.#within(client, share)) {
      this.#take(client);
      return this.#start(key, client, fn);
    }
    if (signal?.aborted) return Promise.reject(new AdmissionRefused('departed'));
    this.#delayed++;
    this.#onDelay?.(key, share);
    return new Promise<void>((resolve, reject) => {
      const start = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        const at = client.waiting.indexOf(start);
        if (at < 0) return;
        client.waiting.splice(at, 1);
        this.#waiting--;
        if (client.waiting.length === 0) this.#backlogged.delete(key);
        reject(new AdmissionRefused('departed'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      client.waiting.push(start);
      this.#waiting++;
      this.#backlogged.add(key);
      this.#dispatch();
    })
      .then(
        // The turn starts from the event loop, not from the previous run's promise, so a client's
        // chain of runs cannot hold the loop (pipeline.ts).
        () => new Promise<void>((resolve) => setImmediate(resolve)),
      )
      .then(() => {
        if (!signal?.aborted) return this.#start(key, client, fn);
        this.#end(key, client);
        throw new AdmissionRefused('departed');
      });
  }

  /**
   * What `key`'s client may have now: everything alone, else its part of the instances and of the
   * time. The part of a light client (below a quarter of an equal part: a health check, a page
   * left open) goes to the others, so it does not halve a heavy client's throughput; the client
   * asking is never counted light (it asks for more).
   */
  share(key?: string): Share {
    this.#prune();
    const active = this.#clients.size;
    if (active <= 1) return { ...ALONE, active };
    const census = this.#census(active);
    let { light, lightTime } = census;
    // The asker is never light: what the census counted of it is taken out again.
    const client = key === undefined ? undefined : this.#clients.get(key);
    if (client !== undefined && client.lightIn === census) {
      light--;
      lightTime -= client.lightBusy;
    }
    const others = Math.max(1, active - light);
    return { runs: Math.max(1, Math.floor(this.#capacity() / others)), time: (1 - lightTime) / others, active };
  }

  /** How many of the active clients are light and their time (a pass over them, reused for a millisecond). */
  #census(active: number): Census {
    const now = this.#now();
    if (this.#counted !== undefined && this.#counted.active === active && now - this.#counted.at < CENSUS_REUSE_MS) return this.#counted;
    this.#advance();
    const lightBelow = 1 / active / 4;
    let light = 0;
    let lightTime = 0;
    const lightIn: Array<[Client, number]> = [];
    for (const client of this.#clients.values()) {
      if (this.#wanting(client)) continue;
      const busy = client.busy * this.#kept(client, now);
      if (busy < lightBelow) {
        light++;
        lightTime += busy;
        lightIn.push([client, busy]);
      }
    }
    this.#counted = { at: now, active, lightBelow, light, lightTime };
    for (const [client, busy] of lightIn) {
      client.lightIn = this.#counted;
      client.lightBusy = busy;
    }
    return this.#counted;
  }

  /**
   * Whether `client` has a run going or waiting: then it is never light, however small its part.
   * A run that shares the guest with many runs of another client gets a small part because of
   * them: counting it light would give its part to the very client that crowds it out (on a
   * loaded machine, four users each with a run going beside 40 of an attacker's had a fortieth
   * each, were all light, and the attacker got every instance).
   */
  #wanting(client: Client): boolean {
    return client.running > 0 || client.waiting.length > 0;
  }

  get stats(): FairShareStats {
    this.#prune();
    return { delayed: this.#delayed, waiting: this.#waiting, active: this.#clients.size };
  }

  /** Whether `client` may start a run now: below its runs, and (with company) within its time. */
  #within(client: Client, share: Share): boolean {
    if (client.running >= share.runs) return false;
    return share.active <= 1 || this.#busy(client) <= share.time;
  }

  /** Takes a slot of `client`'s share for a run about to start. */
  #take(client: Client): void {
    this.#count(client, 1);
  }

  /** Changes `client`'s runs going, with every running client's guest time brought up to now first. */
  #count(client: Client, change: 1 | -1): void {
    this.#advance();
    if (client.running === 0) this.#busy(client);
    client.running += change;
    this.#runs += change;
    if (client.running > 0) this.#running.add(client);
    else this.#running.delete(client);
  }

  /**
   * Brings the guest time of the clients with runs going up to now. The time is shared as a
   * processor shares it (each run going gets an equal part), so the parts of all clients add up
   * to at most 1 whatever the runs overlap, and a run that waits on I/O beside others counts for
   * its part only. Each part is an exponential average over `windowMs`.
   */
  #advance(): void {
    const now = this.#now();
    for (const client of this.#running) {
      const kept = this.#kept(client, now);
      client.busy = client.busy * kept + ((1 - kept) * client.running) / this.#runs;
      client.measured = now;
    }
  }

  /** Runs `fn` in the slot taken for it. */
  #start<T>(key: string, client: Client, fn: () => Promise<T>): Promise<T> {
    let done: Promise<T>;
    try {
      done = fn();
    } catch (error) {
      done = Promise.reject(error);
    }
    return done.finally(() => this.#end(key, client));
  }

  /** Gives the slot back and lets the next waiting runs go. */
  #end(key: string, client: Client): void {
    this.#count(client, -1);
    this.#touch(key, client);
    this.#dispatch();
  }

  /** What is left at `now` of `client`'s time as last measured: it fades over the window (a moving average). */
  #kept(client: Client, now: number): number {
    return Math.exp(-Math.max(0, now - client.measured) / this.#windowMs);
  }

  /** `client`'s part of the recent guest time, brought up to now. */
  #busy(client: Client): number {
    if (client.running > 0) {
      this.#advance();
      return client.busy;
    }
    const now = this.#now();
    client.busy *= this.#kept(client, now);
    client.measured = now;
    return client.busy;
  }

  /** Starts the waiting runs of every client within its share; wakes up later for those over their time. */
  #dispatch(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#backlogged.size === 0) return;
    let wakeMs = Number.POSITIVE_INFINITY;
    for (const key of this.#backlogged) {
      const client = this.#clients.get(key)!;
      const share = this.share(key);
      while (client.waiting.length > 0 && this.#within(client, share)) {
        // The slot is taken now; the run starts on a later turn of the event loop (run()).
        this.#waiting--;
        this.#take(client);
        client.waiting.shift()!();
      }
      if (client.waiting.length === 0) this.#backlogged.delete(key);
      else if (client.running === 0) wakeMs = Math.min(wakeMs, this.#windowMs * Math.log(client.busy / share.time));
    }
    if (Number.isFinite(wakeMs)) {
      this.#timer = setTimeout(() => this.#dispatch(), Math.max(1, Math.ceil(wakeMs)));
      this.#timer.unref();
    }
  }

  /** Marks `key` seen now (moved to the back of the map), creating it if new. */
  #touch(key: string, known?: Client): Client {
    const now = this.#now();
    const client = known ?? this.#clients.get(key) ?? { running: 0, waiting: [], touched: now, busy: 0, measured: now, lightBusy: 0 };
    client.touched = now;
    this.#clients.delete(key);
    this.#clients.set(key, client);
    return client;
  }

  /** Forgets the clients idle for `activeMs`; one with runs going or waiting stays whatever its age. */
  #prune(): void {
    const now = this.#now();
    for (const [key, client] of this.#clients) {
      if (now - client.touched < this.#activeMs) break;
      if (client.running > 0 || client.waiting.length > 0) continue;
      this.#clients.delete(key);
    }
  }
}
