/**
 * The Prometheus metrics of one serving thread (a single host, or one worker thread of
 * --workers N): one prom-client Registry per thread, no global state. Hot paths pay one counter
 * increment or histogram observation each; everything the host already counts (pool, relay)
 * is read when a scrape collects, not updated as it happens. docs/metrics.md lists every metric.
 *
 * The host stays domain-agnostic: labels are HTTP methods and statuses, WIT function names and
 * dependency kinds, never paths, users or anything the guest's data decides.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Counter, Gauge, Histogram, Registry, type CollectFunction } from 'prom-client';

/** What a thread's registry reads at collection time. */
export interface MetricSources {
  pool?: () => { idle: number; busy: number; waiting: number; runs?: number; created: number; discarded: number; retired: number; refused?: Record<string, number> };
  /** The pool's admission limits (host/admission/limits.ts). */
  limits?: () => { max: number; streamMax: number };
  relay?: () => { clients: number; polls: number; coalesced: number; deferred: number; cut: number; heldBytes: number };
  /** The per-client limit on exchanges in flight (host/admission/client-limit.ts); absent when off. */
  clients?: () => { refused: number; busiest: number };
  /** The per-client budget of body pieces a second (host/admission/piece-rate.ts); absent when off. */
  pieces?: () => { throttled: number };
  /** The per-client budget of HTTP/2 streams reset before their answer (host/admission/reset-rate.ts); absent when off. */
  resets?: () => { resets: number; protocolErrors: number; throttled: Record<string, number> };
  /** Exchanges whose client left before the guest ran them, by stage (host/http/departures.ts). */
  departures?: () => Record<string, number>;
  /** Each client's fair share of guest runs (host/admission/fair-share.ts). */
  fairShare?: () => { delayed: number; waiting: number; active: number };
  /** Each dependency's state (store, realtime broker) from the cached readiness check. */
  dependencies?: () => Promise<Record<string, boolean>>;
}

/** HTTP methods kept as label values; any other becomes `other` (bounded cardinality). */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
export const methodLabel = (method: string | undefined): string => (method !== undefined && METHODS.has(method) ? method : 'other');

/** Seconds, from 1 ms to 1 min: REST exchanges sit low, held streams land in the top buckets. */
const EXCHANGE_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** Seconds, 50 µs to 10 s: a SQLite read takes microseconds, a password hash a tenth of a second. */
const IMPORT_BUCKETS = [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];

/**
 * Counts the host keeps itself (by label value), exposed as a counter: each collection adds what
 * they grew since the previous one.
 */
function growing(label: string | undefined, read: () => Record<string, number>): CollectFunction<Counter<string>> {
  const last: Record<string, number> = {};
  return function (this: Counter<string>) {
    for (const [value, now] of Object.entries(read())) {
      // Also when 0: the series exists from the first scrape on (rate() needs its start).
      const grown = now - (last[value] ?? 0);
      if (grown >= 0) label === undefined ? this.inc(grown) : this.inc({ [label]: value }, grown);
      last[value] = now;
    }
  };
}

export class HostMetrics {
  readonly registry = new Registry();
  readonly exchanges: Counter<'method' | 'status'>;
  readonly exchangeSeconds: Histogram<'method'>;
  readonly importSeconds: Histogram<'function'>;
  readonly importErrors: Counter<'function'>;
  readonly publishFailures: Counter;
  readonly leaseAppends: Counter;
  readonly leaseStoreAppends: Counter;

  /** `thread`: the label of this thread's event-loop delay (`main`, or the worker's index). */
  constructor(thread: string) {
    const registers = [this.registry];
    this.exchanges = new Counter({ name: 'host_http_exchanges_total', help: 'HTTP exchanges answered, by method and status', labelNames: ['method', 'status'], registers });
    this.exchangeSeconds = new Histogram({
      name: 'host_http_exchange_duration_seconds',
      help: 'Time from request to the end of the response (a held stream counts when it ends)',
      labelNames: ['method'],
      buckets: EXCHANGE_BUCKETS,
      registers,
    });
    this.importSeconds = new Histogram({
      name: 'host_wit_import_duration_seconds',
      help: 'Calls of the app:platform WIT imports by the guest, and their latency',
      labelNames: ['function'],
      buckets: IMPORT_BUCKETS,
      registers,
    });
    this.importErrors = new Counter({ name: 'host_wit_import_errors_total', help: 'WIT import calls that failed (the guest got an error)', labelNames: ['function'], registers });
    this.publishFailures = new Counter({ name: 'host_realtime_publish_failures_total', help: 'Realtime publishes the broker refused or never answered', registers });
    this.leaseAppends = new Counter({ name: 'host_stream_lease_appends_total', help: 'Appends made under stream leases', registers });
    this.leaseStoreAppends = new Counter({
      name: 'host_stream_lease_store_appends_total',
      help: 'Store appends that carried them: fewer when appends decided while one was in flight went out as one (group commit)',
      registers,
    });
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    new Gauge({
      name: 'host_event_loop_delay_seconds',
      help: 'Event-loop delay of each thread since the previous scrape (p50, p99, max)',
      labelNames: ['thread', 'quantile'],
      registers,
      collect() {
        // Reset after each read: the values cover the time since the previous scrape.
        this.set({ thread, quantile: '0.5' }, delay.percentile(50) / 1e9);
        this.set({ thread, quantile: '0.99' }, delay.percentile(99) / 1e9);
        this.set({ thread, quantile: 'max' }, Math.max(0, delay.max) / 1e9);
        delay.reset();
      },
    });
  }

  /** Registers the gauges and counters read from the host's own state at collection time. */
  watch(sources: MetricSources): void {
    const registers = [this.registry];
    const { pool, relay, dependencies, limits, clients, pieces, resets, departures, fairShare } = sources;
    if (pool) {
      new Gauge({
        name: 'host_guest_instances',
        help: 'Guest instances alive, by state',
        labelNames: ['state'],
        registers,
        collect() {
          const s = pool();
          this.set({ state: 'idle' }, s.idle);
          this.set({ state: 'busy' }, s.busy);
        },
      });
      new Gauge({
        name: 'host_guest_waiting_requests',
        help: 'Exchanges waiting for a guest instance (the pool is at its instance limit)',
        registers,
        collect() {
          this.set(pool().waiting);
        },
      });
      new Counter({ name: 'host_guest_instances_created_total', help: 'Guest instances created', registers, collect: growing(undefined, () => ({ all: pool().created })) });
      new Counter({
        name: 'host_guest_runs_total',
        help: 'Exchanges the guest ran: each request it answered, each relay poll',
        registers,
        collect: growing(undefined, () => ({ all: pool().runs ?? 0 })),
      });
      new Counter({
        name: 'host_guest_instances_ended_total',
        help: 'Guest instances dropped: after a trap (discarded) or by the safety net (retired)',
        labelNames: ['reason'],
        registers,
        collect: growing('reason', () => {
          const { discarded, retired } = pool();
          return { discarded, retired };
        }),
      });
    }
    if (pool) {
      new Counter({
        name: 'host_admission_refused_total',
        help: 'Exchanges that got no guest instance, by reason: queue_full and deadline (answered 503 or gRPC UNAVAILABLE), stopping (shutdown), departed (the client left while waiting)',
        labelNames: ['reason'],
        registers,
        collect: growing('reason', () => pool().refused ?? {}),
      });
    }
    if (limits) {
      new Gauge({
        name: 'host_guest_instances_limit',
        help: 'The most guest instances alive at once (from the memory budget and --instances-max), and those long-lived exchanges may hold',
        labelNames: ['class'],
        registers,
        collect() {
          const l = limits();
          this.set({ class: 'all' }, l.max);
          this.set({ class: 'streaming' }, l.streamMax);
        },
      });
    }
    if (clients) {
      new Counter({
        name: 'host_client_limit_refused_total',
        help: 'Requests refused (429, gRPC RESOURCE_EXHAUSTED) because their client had --client-exchange-limit exchanges in flight',
        registers,
        collect: growing(undefined, () => ({ all: clients().refused })),
      });
      new Gauge({
        name: 'host_client_exchanges_busiest',
        help: 'Exchanges in flight (held streams included) of the client with the most of them in one thread, against --client-exchange-limit',
        // Each worker thread counts its own: the busiest thread's figure, not a sum.
        aggregator: 'max',
        registers,
        collect() {
          this.set(clients().busiest);
        },
      });
    }
    if (pieces) {
      new Counter({
        name: 'host_body_piece_rate_throttled_total',
        help: 'Times a request body was paused, or a new connection left unread, because its client sent more body pieces a second than --body-piece-rate',
        registers,
        collect: growing(undefined, () => ({ all: pieces().throttled })),
      });
    }
    if (resets) {
      new Counter({
        name: 'host_http2_streams_reset_total',
        help: 'HTTP/2 streams their client reset (or left with its connection) before the response head, charged to --client-reset-rate',
        registers,
        collect: growing(undefined, () => ({ all: resets().resets })),
      });
      new Counter({
        name: 'host_http2_protocol_errors_total',
        help: 'HTTP/2 connections their client ended with a protocol error, charged to --client-reset-rate',
        registers,
        collect: growing(undefined, () => ({ all: resets().protocolErrors })),
      });
      new Counter({
        name: 'host_client_reset_rate_throttled_total',
        help: 'Times a client past --client-reset-rate was held back: held (a new connection left unread), cut (its HTTP/2 connection closed), refused (a stream reset before any work)',
        labelNames: ['action'],
        registers,
        collect: growing('action', () => resets().throttled),
      });
    }
    if (departures) {
      new Counter({
        name: 'host_exchanges_departed_total',
        help: 'Exchanges whose client left (a stream reset, a connection closed) before the guest ran them, by stage: before_start, waiting, before_run',
        labelNames: ['stage'],
        registers,
        collect: growing('stage', departures),
      });
    }
    if (fairShare) {
      new Counter({
        name: 'host_client_fair_share_delayed_total',
        help: 'Ordinary requests that waited (holding no instance) because their client had its fair share of guest runs going while other clients were active',
        registers,
        collect: growing(undefined, () => ({ all: fairShare().delayed })),
      });
      new Gauge({
        name: 'host_client_fair_share_waiting',
        help: "Ordinary requests waiting now for their client's earlier guest runs to end",
        registers,
        collect() {
          this.set(fairShare().waiting);
        },
      });
    }
    if (relay) {
      new Gauge({
        name: 'host_sse_streams_open',
        help: 'SSE and gRPC server streams held by the host (the stream relay)',
        registers,
        collect() {
          this.set(relay().clients);
        },
      });
      new Counter({
        name: 'host_relay_polls_total',
        help: 'Relay polls: one guest call per stream path after a wake-up, whatever the clients and their positions',
        registers,
        collect: growing(undefined, () => ({ all: relay().polls })),
      });
      new Counter({
        name: 'host_relay_frames_coalesced_total',
        help: 'Relayed frames a slow client never got because a newer one replaced them',
        registers,
        collect: growing(undefined, () => ({ all: relay().coalesced })),
      });
      new Counter({
        name: 'host_relay_frames_deferred_total',
        help: 'Relayed frames held pending because their client had used its share of the relay writes (written later or superseded)',
        registers,
        collect: growing(undefined, () => ({ all: relay().deferred })),
      });
      new Counter({
        name: 'host_relay_clients_cut_total',
        help: 'Relayed clients cut for not taking their bytes',
        registers,
        collect: growing(undefined, () => ({ all: relay().cut })),
      });
      new Gauge({
        name: 'host_relay_held_bytes',
        help: 'Bytes the stream relay holds for its clients (unsent and pending frames)',
        registers,
        collect() {
          this.set(relay().heldBytes);
        },
      });
    }
    if (dependencies) {
      new Gauge({
        name: 'host_dependency_up',
        help: 'Whether a dependency answered the last readiness check (1) or not (0); the lowest across threads',
        labelNames: ['dependency'],
        aggregator: 'min',
        registers,
        async collect() {
          for (const [name, up] of Object.entries(await dependencies())) this.set({ dependency: name }, up ? 1 : 0);
        },
      });
    }
  }
}
