/**
 * ioredis connections configured to fail fast and heal by themselves:
 *
 * - `enableOfflineQueue: false`: a command issued while the connection is down is rejected at
 *   once ("Stream isn't writeable") instead of waiting in a queue, so a guest sees `unavailable`
 *   immediately rather than hanging on a dead server.
 * - `maxRetriesPerRequest: 0` + `autoResendUnfulfilledCommands: false`: a command in flight when
 *   the connection drops is rejected as soon as the drop is noticed, and never resent after a
 *   reconnect (a resent append or commit could apply twice).
 * - `commandTimeout`: a command whose reply never comes (a hung or black-holed server) is
 *   rejected after that long.
 * - `retryStrategy`: keeps reconnecting in the background with a capped backoff, forever, so the
 *   backend recovers on its own when Redis returns.
 * - an 'error' listener is always attached: ioredis emits 'error' for every failed connection
 *   attempt, and an EventEmitter 'error' without a listener would crash the process.
 */
import { Redis, type RedisOptions } from 'ioredis';

export const DEFAULT_CONNECT_TIMEOUT_MS = 2000;
export const DEFAULT_COMMAND_TIMEOUT_MS = 5000;
/** Reconnect backoff: 100 ms, doubling, at most this. */
export const MAX_RECONNECT_DELAY_MS = 2000;

export interface RedisConnectionOptions {
  /** How long establishing a TCP connection may take before it counts as failed. */
  connectTimeoutMs?: number;
  /** How long a command may wait for its reply before failing `unavailable`. */
  commandTimeoutMs?: number;
  /** Called with connection errors (they are retried in the background); default: ignored. */
  onError?: (error: Error) => void;
}

export function reconnectDelay(attempt: number): number {
  return Math.min(100 * 2 ** Math.min(Math.max(attempt - 1, 0), 10), MAX_RECONNECT_DELAY_MS);
}

/** A client that has not connected yet (`lazyConnect`); `overrides` adjust the fail-fast defaults. */
export function createRedisClient(url: string, options: RedisConnectionOptions = {}, overrides: RedisOptions = {}): Redis {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    commandTimeout: options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    retryStrategy: reconnectDelay,
    ...overrides,
  });
  const onError = options.onError;
  client.on('error', (error: Error) => onError?.(error));
  return client;
}

/** The server part of a URL for messages: never the password. */
export function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
  } catch {
    return '(unparseable url)';
  }
}

/**
 * Connects a client and waits until it is ready. On failure the client is shut down (no
 * background reconnecting for a backend that never opened) and the last connection error is
 * thrown, which names the cause (ECONNREFUSED, ETIMEDOUT...) better than "Connection is closed".
 */
export async function connectClient(client: Redis): Promise<void> {
  let lastError: Error | undefined;
  const remember = (error: Error) => (lastError = error);
  client.on('error', remember);
  try {
    await client.connect();
  } catch (error) {
    client.disconnect();
    throw lastError ?? error;
  } finally {
    client.off('error', remember);
  }
}

/** Closes a client: QUIT when connected (pending replies arrive first), else just disconnect. Idempotent. */
export async function closeClient(client: Redis): Promise<void> {
  if (client.status === 'end') return;
  if (client.status === 'ready') {
    try {
      await client.quit();
      return;
    } catch {
      // fall through: the connection died meanwhile
    }
  }
  client.disconnect();
}
