/**
 * Host configuration from command-line flags and environment variables; a flag wins over its
 * variable, which wins over the default. Invalid values are reported naming the flag, the
 * variable and the allowed values (never the value of a secret).
 */
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import * as v from 'valibot';
import { plainArgumentError } from './argument-errors.ts';
import { isCidr } from './net/cidr.ts';

export interface OptionSpec {
  env: string;
  default: string;
  allowed?: readonly string[];
  kind?:
    | 'port'
    | 'optional-port'
    | 'count'
    | 'auto-count'
    | 'seconds'
    | 'optional-url'
    | 'identifier'
    | 'workers'
    | 'text'
    | 'optional-text'
    | 'cidr-list'
    | 'host-list'
    | 'smtp-url';
  help: string;
}

/** Every host option, as data: docs/configuration.md has a row for each (test/docs/configuration.unit.test.ts). */
export const OPTIONS = {
  port: { env: 'PORT', default: '3000', kind: 'port', help: 'TCP port to listen on' },
  host: { env: 'HOST', default: '127.0.0.1', help: 'interface to bind' },
  db: { env: 'DB', default: 'sqlite', allowed: ['sqlite', 'postgres', 'redis'], help: 'storage backend' },
  'data-dir': { env: 'DATA_DIR', default: './data', help: 'directory of the SQLite database' },
  transport: { env: 'TRANSPORT', default: 'both', allowed: ['http', 'grpc', 'both'], help: 'what the port serves: REST and pages, gRPC, or both (docs/grpc.md)' },
  realtime: {
    env: 'REALTIME',
    default: 'auto',
    allowed: ['auto', 'off', 'local', 'polling', 'postgres', 'redis'],
    help: 'live-update mode (auto: follows --db, so hosts sharing a store share live updates)',
  },
  // No default server: a start that was not given one must not write into a database it does not own.
  'postgres-url': {
    env: 'POSTGRES_URL',
    default: 'none',
    kind: 'optional-url',
    help: 'PostgreSQL connection URL, postgres://user@host:5432/database (required with --db postgres or --realtime postgres)',
  },
  'postgres-schema': { env: 'POSTGRES_SCHEMA', default: 'wasi_app', kind: 'identifier', help: 'PostgreSQL schema holding every table of this project' },
  'redis-url': { env: 'REDIS_URL', default: 'none', kind: 'optional-url', help: 'Redis connection URL, redis://host:6379 (required with --db redis or --realtime redis)' },
  'redis-channel': { env: 'REDIS_CHANNEL', default: 'app-events', help: 'pub/sub channel of realtime wake-ups' },
  'redis-prefix': { env: 'REDIS_PREFIX', default: 'wasi-app:', help: 'prefix of every Redis key this project writes' },
  'instances-min': { env: 'INSTANCES_MIN', default: '2', kind: 'count', help: 'guest instances created at start' },
  'instances-max': {
    env: 'INSTANCES_MAX',
    default: '1024',
    kind: 'count',
    help: 'most guest instances alive at once, an upper bound on what --memory-budget allows (docs/memory.md)',
  },
  'memory-budget': {
    env: 'MEMORY_BUDGET',
    default: 'auto',
    kind: 'auto-count',
    help: 'MiB the host process may use; guest instances are limited to what fits (auto: half the machine or cgroup memory, at most 512; 0: off; docs/memory.md)',
  },
  'instances-streaming': {
    env: 'INSTANCES_STREAMING',
    default: 'auto',
    kind: 'auto-count',
    help: 'most guest instances held by long-lived exchanges (gRPC calls, SSE held by the guest) at once (auto: half the instance limit, leaving ordinary requests the rest)',
  },
  'admission-queue': {
    env: 'ADMISSION_QUEUE',
    default: 'auto',
    kind: 'auto-count',
    help: 'most requests waiting for a guest instance, per class; beyond, 503 with Retry-After (auto: 4 times the instance limit, at least 64)',
  },
  'admission-wait-ms': { env: 'ADMISSION_WAIT_MS', default: '5000', kind: 'count', help: 'longest a request waits for a guest instance before a 503 with Retry-After' },
  // The default is above what one browser opens (6 HTTP/1.1 connections, or one HTTP/2 connection
  // of at most 100 streams, a page of this service using a handful and one event stream) and what
  // a small office behind one NAT address does, and far below the thousands of streams the relay holds.
  'client-exchange-limit': {
    env: 'CLIENT_EXCHANGE_LIMIT',
    default: '128',
    kind: 'count',
    help: 'most exchanges in flight per client address (held streams included, IPv6 per /64); beyond, 429 with Retry-After before any guest instance (0: off; docs/security.md)',
  },
  // Legitimate bodies come in pieces of KiBs (a 256 KiB upload is tens of pieces) and a gRPC client
  // streaming small messages sends one piece per message; a piece costs the host ~1-2 µs, so the
  // default bounds one client's pieces at well under 1% of a core (docs/security.md).
  'body-piece-rate': {
    env: 'BODY_PIECE_RATE',
    default: '4096',
    kind: 'count',
    help: 'request body pieces (HTTP/1.1 chunks, HTTP/2 DATA frames) one client address may send a second (IPv6 per /64); beyond, its bodies are read more slowly, never cut (0: off; docs/security.md)',
  },
  // A browser resets a stream when a page is left or a fetch cancelled before its answer, a few at
  // a time; a gRPC client when a call passes its deadline. The rapid-reset attack resets thousands a
  // second; nghttp2 allows 1,000 per connection, then 33 a second (docs/security.md).
  'client-reset-rate': {
    env: 'CLIENT_RESET_RATE',
    default: '100',
    kind: 'count',
    help: 'HTTP/2 streams one client address may reset (or leave) before their answer, a second (IPv6 per /64; a connection ended by a protocol error counts 10); beyond, its HTTP/2 connections are closed and its new ones wait until it has repaid (0: off; docs/security.md)',
  },
  'instance-max-requests': {
    env: 'INSTANCE_MAX_REQUESTS',
    default: '10000',
    kind: 'count',
    help: 'exchanges after which a guest instance is retired and replaced (0: never; a safety net, docs/memory.md)',
  },
  'instance-max-memory': {
    env: 'INSTANCE_MAX_MEMORY',
    default: '64',
    kind: 'count',
    help: 'MiB of linear memory past which a guest instance is retired after its exchange (0: never; a safety net, docs/memory.md)',
  },
  'instance-idle-seconds': {
    env: 'INSTANCE_IDLE_SECONDS',
    default: '60',
    kind: 'count',
    help: 'seconds after which an idle guest instance beyond --instances-min is retired, giving its memory back (0: never; docs/memory.md)',
  },
  'maintenance-interval': {
    env: 'MAINTENANCE_INTERVAL',
    default: '60',
    kind: 'seconds',
    help: 'seconds between maintenance passes (expired key-value entries, data past its retention; one host at a time on a shared store; 0: never; docs/storage.md)',
  },
  'stream-relay': {
    env: 'STREAM_RELAY',
    default: 'on',
    allowed: ['on', 'off'],
    help: 'the host holds SSE streams and asks the guest for frames (off: each stream holds a guest instance)',
  },
  workers: { env: 'WORKERS', default: '1', kind: 'workers', help: 'worker threads serving the port, each with its own guest instances (auto: one per CPU core)' },
  'response-cache': {
    env: 'RESPONSE_CACHE',
    default: 'on',
    allowed: ['on', 'off'],
    help: 'answer repeated cacheable GETs from memory after checking the store (docs/response-cache.md)',
  },
  'response-cache-entries': { env: 'RESPONSE_CACHE_ENTRIES', default: '1000', kind: 'count', help: 'most responses the cache holds per thread' },
  'response-cache-bytes': { env: 'RESPONSE_CACHE_BYTES', default: '16777216', kind: 'count', help: 'most body bytes the cache holds per thread' },
  'head-timeout-seconds': {
    env: 'HEAD_TIMEOUT_SECONDS',
    default: '20',
    kind: 'seconds',
    help: 'seconds a client has to send a whole HTTP/1.1 request head, for every request on a connection; then 408 and close (0: never)',
  },
  'body-timeout-seconds': {
    env: 'BODY_TIMEOUT_SECONDS',
    default: '30',
    kind: 'seconds',
    help: 'seconds a client has to send a request body of at most 256 KiB, read before a guest instance is taken; then 408 (0: never)',
  },
  'keepalive-timeout-seconds': {
    env: 'KEEPALIVE_TIMEOUT_SECONDS',
    default: '5',
    kind: 'seconds',
    help: 'seconds an HTTP/1.1 connection may stay idle between requests before it is closed (0: never)',
  },
  'http2-idle-timeout-seconds': {
    env: 'HTTP2_IDLE_TIMEOUT_SECONDS',
    default: '60',
    kind: 'seconds',
    help: 'seconds an HTTP/2 connection may stay without an open stream before GOAWAY and close (0: never)',
  },
  'send-timeout-seconds': {
    env: 'SEND_TIMEOUT_SECONDS',
    default: '30',
    kind: 'seconds',
    help: 'seconds a response may wait for a client that does not read it (HTTP/2 window 0, a full socket) before it is cut (0: never)',
  },
  'shutdown-grace-ms': {
    env: 'SHUTDOWN_GRACE_MS',
    default: '8000',
    kind: 'count',
    help: 'how long shutdown waits for in-flight requests; the process exits 1 s after it whatever is still running',
  },
  'metrics-port': {
    env: 'METRICS_PORT',
    default: 'off',
    kind: 'optional-port',
    help: 'TCP port of the operations listener: /metrics (Prometheus), /livez, /readyz (docs/metrics.md)',
  },
  'metrics-host': { env: 'METRICS_HOST', default: '127.0.0.1', kind: 'text', help: 'interface the operations listener binds' },
  'metrics-allowed-hosts': {
    env: 'METRICS_ALLOWED_HOSTS',
    default: 'none',
    kind: 'host-list',
    help: 'host names the operations listener answers besides IP addresses, localhost and --metrics-host (comma-separated; docs/metrics.md)',
  },
  'trusted-proxies': {
    env: 'TRUSTED_PROXIES',
    default: 'none',
    kind: 'cidr-list',
    help: 'CIDRs of reverse proxies whose Forwarded / X-Forwarded-For name the client (comma-separated; docs/deployment.md)',
  },
  'smtp-url': {
    env: 'SMTP_URL',
    default: 'none',
    kind: 'smtp-url',
    help: 'where mail goes: smtp://host:port or smtps://host:port, credentials possibly inside (none: development logs it on the console; required otherwise, docs/operating.md)',
  },
  'smtp-user': { env: 'SMTP_USER', default: 'none', kind: 'optional-text', help: 'SMTP user name, when not in SMTP_URL (none: no separate credentials)' },
  'smtp-password': { env: 'SMTP_PASSWORD', default: 'none', kind: 'optional-text', help: 'SMTP password, when not in SMTP_URL (none: no separate credentials)' },
  'mail-max-attempts': { env: 'MAIL_MAX_ATTEMPTS', default: '8', kind: 'count', help: 'delivery attempts of a queued message before it is set aside as a dead letter' },
  'mail-retry-seconds': {
    env: 'MAIL_RETRY_SECONDS',
    default: '30',
    kind: 'seconds',
    help: 'seconds before a failed delivery is tried again, doubling with each failure (at most an hour)',
  },
} as const satisfies Record<string, OptionSpec>;

export type OptionName = keyof typeof OPTIONS;
type Allowed<K extends OptionName> = (typeof OPTIONS)[K] extends { allowed: readonly (infer A)[] } ? A : never;

export interface HostConfig {
  port: number;
  host: string;
  db: Allowed<'db'>;
  dataDir: string;
  transport: Allowed<'transport'>;
  /** `auto` resolved: the store's own broker (realtimeFor). */
  realtime: Exclude<Allowed<'realtime'>, 'auto'>;
  /** Undefined unless given: required (loadConfig checks) when --db or --realtime is postgres. */
  postgresUrl: string | undefined;
  postgresSchema: string;
  /** Undefined unless given: required (loadConfig checks) when --db or --realtime is redis. */
  redisUrl: string | undefined;
  redisChannel: string;
  redisPrefix: string;
  instancesMin: number;
  instancesMax: number;
  /** MiB the process may use; `auto`: derived from the memory limit (host/admission/memory-budget.ts); 0: off */
  memoryBudgetMiB: number | 'auto';
  /** instances long-lived exchanges may hold; `auto`: half the instance limit */
  instancesStreaming: number | 'auto';
  /** requests waiting per class; `auto`: 4 × the instance limit */
  admissionQueue: number | 'auto';
  admissionWaitMs: number;
  /** exchanges in flight per client (host/admission/client-limit.ts); 0: off */
  clientExchangeLimit: number;
  /** body pieces a second per client (host/admission/piece-rate.ts); 0: off */
  bodyPieceRate: number;
  /** HTTP/2 streams reset before their answer, a second per client (host/admission/reset-rate.ts); 0: off */
  clientResetRate: number;
  /** 0: never */
  instanceMaxRequests: number;
  /** MiB; 0: never */
  instanceMaxMemoryMiB: number;
  /** seconds; 0: never */
  instanceIdleSeconds: number;
  /** seconds between maintenance passes; 0: never (host/maintenance/) */
  maintenanceIntervalSeconds: number;
  streamRelay: Allowed<'stream-relay'>;
  /** 1: this thread serves; more: host/workers/ starts that many threads on one port. */
  workers: number;
  shutdownGraceMs: number;
  /** Time limits on connections, request heads and bodies, and stalled responses, in seconds; 0: never (host/http/limits.ts). */
  headTimeoutSeconds: number;
  bodyTimeoutSeconds: number;
  keepAliveTimeoutSeconds: number;
  http2IdleTimeoutSeconds: number;
  sendTimeoutSeconds: number;
  responseCache: Allowed<'response-cache'>;
  responseCacheEntries: number;
  responseCacheBytes: number;
  /** The operations listener's port (host/metrics/); undefined: off. */
  metricsPort: number | undefined;
  metricsHost: string;
  /** Host names the operations listener answers besides IP literals, localhost and metricsHost. */
  metricsAllowedHosts: string[];
  /** CIDRs of proxies whose forwarding headers name the client (host/net/client-address.ts); empty: none. */
  trustedProxies: string[];
  /** SMTP server URL; undefined: none (host/mail/settings.ts decides whether that is allowed). */
  smtpUrl: string | undefined;
  smtpUser: string | undefined;
  smtpPassword: string | undefined;
  mailMaxAttempts: number;
  mailRetrySeconds: number;
}

/** What a server URL looks like, for the message when one is missing. */
const SERVER_URL_EXAMPLE = { postgres: 'postgres://user@host:5432/database', redis: 'redis://host:6379' } as const;

/** The URL of a server the configuration uses; loadConfig has checked that it was given. */
export function serverUrl(config: Pick<HostConfig, 'postgresUrl' | 'redisUrl'>, server: 'postgres' | 'redis'): string {
  const url = server === 'postgres' ? config.postgresUrl : config.redisUrl;
  if (url === undefined) throw new ConfigError(`--${server}-url (${OPTIONS[`${server}-url`].env}) is needed: there is no default server`);
  return url;
}

/** Upper bound on the `-timeout-seconds` options: one day. */
export const MAX_TIMEOUT_SECONDS = 86_400;

/** Upper bound on --workers: each thread holds its own compiled component and instances. */
export const MAX_WORKERS = 64;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** `none`, or comma-separated entries each valid for `entry` (spaces around commas allowed). */
function commaList(entry: v.GenericSchema<string, string>) {
  return v.union([
    v.pipe(
      v.literal('none'),
      v.transform((): string[] => []),
    ),
    v.pipe(
      v.string(),
      v.transform((text) => text.split(',').map((part) => part.trim())),
      v.array(entry),
      v.minLength(1),
    ),
  ]);
}

const schemas = {
  port: v.pipe(v.string(), v.regex(/^\d+$/), v.transform(Number), v.integer(), v.minValue(0), v.maxValue(65535)),
  count: v.pipe(v.string(), v.regex(/^\d+$/), v.transform(Number), v.integer(), v.minValue(0)),
  'auto-count': v.union([v.literal('auto'), v.pipe(v.string(), v.regex(/^\d+$/), v.transform(Number), v.integer(), v.minValue(0))]),
  // A time limit: at most a day, so that it stays far inside a Node timer's range (2^31 - 1 ms).
  seconds: v.pipe(v.string(), v.regex(/^\d{1,5}$/), v.transform(Number), v.integer(), v.minValue(0), v.maxValue(MAX_TIMEOUT_SECONDS)),
  'optional-url': v.union([
    v.pipe(
      v.picklist(['none', '']),
      v.transform(() => undefined),
    ),
    v.pipe(v.string(), v.url()),
  ]),
  // A PostgreSQL identifier used unquoted-safe: at most 63 bytes, else PostgreSQL truncates it.
  identifier: v.pipe(v.string(), v.regex(/^[A-Za-z_][A-Za-z0-9_$]{0,62}$/)),
  'optional-port': v.union([
    v.pipe(
      v.literal('off'),
      v.transform(() => undefined),
    ),
    v.pipe(v.string(), v.regex(/^\d+$/), v.transform(Number), v.integer(), v.minValue(0), v.maxValue(65535)),
  ]),
  workers: v.union([
    v.pipe(
      v.literal('auto'),
      v.transform(() => Math.min(availableParallelism(), MAX_WORKERS)),
    ),
    v.pipe(v.string(), v.regex(/^\d+$/), v.transform(Number), v.integer(), v.minValue(1), v.maxValue(MAX_WORKERS)),
  ]),
  text: v.pipe(v.string(), v.minLength(1)),
  'optional-text': v.pipe(
    v.string(),
    v.transform((text) => (text === '' || text === 'none' ? undefined : text)),
  ),
  'smtp-url': v.union([
    v.pipe(
      v.literal('none'),
      v.transform(() => undefined),
    ),
    v.pipe(v.string(), v.url(), v.regex(/^smtps?:\/\/[^/?#]+\/?(\?[^#]*)?$/i)),
  ]),
  'cidr-list': commaList(v.pipe(v.string(), v.check(isCidr))),
  // RFC 1123 host names (letters, digits, hyphens, dots), compared case-insensitively.
  'host-list': commaList(v.pipe(v.string(), v.regex(/^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$/), v.toLowerCase())),
};

/** What each kind of value must look like, for the error message. */
const EXPECTED: Record<NonNullable<OptionSpec['kind']>, string> = {
  port: 'a port number 0-65535',
  'optional-port': 'off or a port number 0-65535',
  count: 'a non-negative integer',
  'auto-count': 'auto or a non-negative integer',
  seconds: `whole seconds 0-${MAX_TIMEOUT_SECONDS}`,
  'optional-url': 'none or an absolute URL',
  identifier: 'a plain identifier (letters, digits, _ or $; 1-63 characters, not starting with a digit)',
  workers: `auto or a whole number 1-${MAX_WORKERS}`,
  text: 'a non-empty value',
  'optional-text': 'none or any value',
  'smtp-url': 'none or smtp://[user:password@]host[:port] or smtps://…',
  'cidr-list': 'none or comma-separated IPv4/IPv6 addresses or CIDR ranges, such as 127.0.0.1/32,10.0.0.0/8,fd00::/8',
  'host-list': 'none or comma-separated host names, such as metrics.internal',
};

function resolve(name: OptionName, flags: Record<string, string | undefined>, env: NodeJS.ProcessEnv): string | number | string[] | undefined {
  // (SMTP_URL and SMTP_PASSWORD may hold credentials: messages name the option, never the value.)
  const spec: OptionSpec = OPTIONS[name];
  const fromFlag = flags[name];
  const raw = fromFlag ?? env[spec.env] ?? spec.default;
  const source = fromFlag !== undefined ? `--${name}` : env[spec.env] !== undefined ? spec.env : 'default';
  if (spec.allowed) {
    if (!spec.allowed.includes(raw)) {
      throw new ConfigError(`invalid value for --${name} (${spec.env}) from ${source}: allowed values are ${spec.allowed.join(', ')}`);
    }
    return raw;
  }
  const result = v.safeParse(schemas[spec.kind ?? 'text'], raw);
  if (!result.success) {
    const expected = EXPECTED[spec.kind ?? 'text'];
    throw new ConfigError(`invalid value for --${name} (${spec.env}) from ${source}: expected ${expected}`);
  }
  return result.output;
}

/** `auto`: live updates travel through the store's own server, so every host sharing it hears every write. */
export function realtimeFor(mode: Allowed<'realtime'>, db: HostConfig['db']): HostConfig['realtime'] {
  if (mode !== 'auto') return mode;
  return db === 'sqlite' ? 'local' : db;
}

/** Parses argv and the environment; throws ConfigError on anything invalid or unknown. */
export function loadConfig(argv: string[], env: NodeJS.ProcessEnv): HostConfig {
  let values: Record<string, string | boolean | undefined>;
  try {
    const options = Object.fromEntries(Object.keys(OPTIONS).map((k) => [k, { type: 'string' as const }]));
    values = parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new ConfigError(`${plainArgumentError(error)}; run with --help to list the options`);
  }
  const flags = values as Record<string, string | undefined>;
  const get = <K extends OptionName>(k: K) => resolve(k, flags, env);
  const config: HostConfig = {
    port: get('port') as number,
    host: get('host') as string,
    db: get('db') as HostConfig['db'],
    dataDir: get('data-dir') as string,
    transport: get('transport') as HostConfig['transport'],
    realtime: realtimeFor(get('realtime') as Allowed<'realtime'>, get('db') as HostConfig['db']),
    postgresUrl: get('postgres-url') as string | undefined,
    postgresSchema: get('postgres-schema') as string,
    redisUrl: get('redis-url') as string | undefined,
    redisChannel: get('redis-channel') as string,
    redisPrefix: get('redis-prefix') as string,
    instancesMin: get('instances-min') as number,
    instancesMax: get('instances-max') as number,
    memoryBudgetMiB: get('memory-budget') as number | 'auto',
    instancesStreaming: get('instances-streaming') as number | 'auto',
    admissionQueue: get('admission-queue') as number | 'auto',
    admissionWaitMs: get('admission-wait-ms') as number,
    clientExchangeLimit: get('client-exchange-limit') as number,
    bodyPieceRate: get('body-piece-rate') as number,
    clientResetRate: get('client-reset-rate') as number,
    instanceMaxRequests: get('instance-max-requests') as number,
    instanceMaxMemoryMiB: get('instance-max-memory') as number,
    instanceIdleSeconds: get('instance-idle-seconds') as number,
    maintenanceIntervalSeconds: get('maintenance-interval') as number,
    streamRelay: get('stream-relay') as HostConfig['streamRelay'],
    workers: get('workers') as number,
    shutdownGraceMs: get('shutdown-grace-ms') as number,
    headTimeoutSeconds: get('head-timeout-seconds') as number,
    bodyTimeoutSeconds: get('body-timeout-seconds') as number,
    keepAliveTimeoutSeconds: get('keepalive-timeout-seconds') as number,
    http2IdleTimeoutSeconds: get('http2-idle-timeout-seconds') as number,
    sendTimeoutSeconds: get('send-timeout-seconds') as number,
    responseCache: get('response-cache') as HostConfig['responseCache'],
    responseCacheEntries: get('response-cache-entries') as number,
    responseCacheBytes: get('response-cache-bytes') as number,
    metricsPort: get('metrics-port') as number | undefined,
    metricsHost: get('metrics-host') as string,
    metricsAllowedHosts: get('metrics-allowed-hosts') as string[],
    trustedProxies: get('trusted-proxies') as string[],
    smtpUrl: get('smtp-url') as string | undefined,
    smtpUser: get('smtp-user') as string | undefined,
    smtpPassword: get('smtp-password') as string | undefined,
    mailMaxAttempts: get('mail-max-attempts') as number,
    mailRetrySeconds: get('mail-retry-seconds') as number,
  };
  for (const server of ['postgres', 'redis'] as const) {
    const use = config.db === server ? `--db ${server}` : config.realtime === server ? `--realtime ${server}` : undefined;
    if (use !== undefined && (server === 'postgres' ? config.postgresUrl : config.redisUrl) === undefined) {
      const option = `--${server}-url (${OPTIONS[`${server}-url`].env})`;
      throw new ConfigError(`${use} needs ${option}, the server's URL (${SERVER_URL_EXAMPLE[server]}): there is no default server`);
    }
  }
  if (config.mailMaxAttempts < 1) throw new ConfigError('invalid value for --mail-max-attempts (MAIL_MAX_ATTEMPTS): must be at least 1');
  if (config.mailRetrySeconds < 1) throw new ConfigError('invalid value for --mail-retry-seconds (MAIL_RETRY_SECONDS): must be at least 1');
  if (config.instancesMax < 1 || config.instancesMin > config.instancesMax) {
    throw new ConfigError('invalid value for --instances-max (INSTANCES_MAX): must be at least 1 and at least --instances-min');
  }
  if (config.metricsPort !== undefined && config.metricsPort !== 0 && config.metricsPort === config.port) {
    throw new ConfigError('invalid value for --metrics-port (METRICS_PORT): must differ from --port (the operations listener is a separate one)');
  }
  return config;
}
