/**
 * Realtime fan-out across hosts through PostgreSQL's own LISTEN/NOTIFY, so hosts that share a
 * PostgreSQL store share live updates without another server.
 *
 * - publish: `SELECT pg_notify(name, payload)` on a small pool of its own. NOTIFY payloads must
 *   be shorter than 8000 bytes: a longer message goes out empty, as a bare wake-up (subscribers
 *   treat every message as a wake-up and re-read the store when it carries nothing usable).
 * - listen: ONE listener connection per instance (so per host process or thread), opened on the
 *   first listen and shared by every listener: a channel is LISTENed when its first listener
 *   appears and UNLISTENed when its last one leaves; notifications are fanned out in memory.
 * - A dropped listener connection (server restart, network loss, pg_terminate_backend) behaves
 *   like the Redis subscriber's: every listener's `onInterrupted` is called, `available` is false
 *   until a new connection (capped backoff, forever) has LISTENed again, and notifications sent
 *   meanwhile are lost. Callers then re-read the store on an interval and re-subscribe; their
 *   first read after re-subscribing catches up with what was missed.
 *
 * Channel names on the server are `<namespace>.<channel>` (the namespace is the schema, so
 * projects sharing a database stay apart), hashed when longer than PostgreSQL's 63-byte limit.
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import { StorageFailure } from '../storage/errors.ts';
import { createPool, DEFAULT_CONNECT_TIMEOUT_MS, withDefaultUser } from '../storage/postgres/connection.ts';
import { reconnectDelay } from '../storage/redis/connection.ts';
import { deliver, interruptAll, type Listener, type Listeners } from './fan-out.ts';
import type { PubSubBackend } from './types.ts';

/** NOTIFY rejects a payload of 8000 bytes or more (PostgreSQL's NOTIFY documentation). */
export const MAX_NOTIFY_PAYLOAD_BYTES = 7999;
/** PostgreSQL truncates identifiers (channel names included) beyond NAMEDATALEN - 1 bytes. */
const MAX_CHANNEL_BYTES = 63;
export const DEFAULT_PUBLISH_TIMEOUT_MS = 1000;
/** The suffix of the listener connection's application_name. */
export const LISTENER_ROLE = ':listen';

export interface PostgresPubSubOptions {
  url: string;
  /** Prefixed to every channel name on the server: the schema, so projects sharing a database stay apart. */
  namespace: string;
  connectTimeoutMs?: number;
  /** How long a NOTIFY may take. */
  publishTimeoutMs?: number;
  /** Connection errors (retried in the background) and listener exceptions; default: ignored. */
  onError?: (error: unknown) => void;
}

export interface PostgresPubSub extends PubSubBackend {
  readonly name: 'postgres';
  subscribed(): Promise<void>;
  readonly available: boolean;
}

/** The channel's name on the server: readable when it fits in an identifier, else hashed. */
export function serverChannelName(namespace: string, channel: string): string {
  const plain = `${namespace}.${channel}`;
  if (Buffer.byteLength(plain) <= MAX_CHANNEL_BYTES) return plain;
  const digest = createHash('sha256').update(plain).digest('hex').slice(0, 24);
  return `${namespace.slice(0, 30)}.${digest}`;
}

export function postgresPubSub(options: PostgresPubSubOptions): PostgresPubSub {
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const onError = (error: unknown): void => options.onError?.(error);
  // Named apart, so an operator (or a test) can tell the listener connection in pg_stat_activity.
  const applicationName = (role: string) => `wasi-app:${options.namespace}`.slice(0, MAX_CHANNEL_BYTES - role.length) + role;
  const publisher = createPool({
    url: options.url,
    poolSize: 2,
    connectTimeoutMs,
    statementTimeoutMs: options.publishTimeoutMs ?? DEFAULT_PUBLISH_TIMEOUT_MS,
    applicationName: applicationName(':notify'),
    onPoolError: onError,
  });

  const listeners: Listeners = new Map();
  const pending = new Set<Promise<unknown>>();
  /** Callers of subscribed() waiting for the listener connection to be up. */
  let waitingForUp: Array<() => void> = [];
  let client: pg.Client | undefined;
  let up = false;
  let wasUp = false;
  let attempts = 0;
  let retryTimer: NodeJS.Timeout | undefined;
  let closed = false;

  function track(owner: pg.Client, command: Promise<unknown>): void {
    // A command on a connection that has since dropped fails as expected: the reconnect redoes it.
    const settled = command
      .catch((error: unknown) => {
        if (!closed && client === owner) onError(error);
      })
      .finally(() => pending.delete(settled));
    pending.add(settled);
  }

  function connect(): void {
    retryTimer = undefined;
    if (closed) return;
    const next = new pg.Client({
      connectionString: withDefaultUser(options.url),
      connectionTimeoutMillis: connectTimeoutMs,
      keepAlive: true,
      application_name: applicationName(LISTENER_ROLE),
    });
    client = next;
    next.on('notification', (notification) => deliver(listeners, notification.channel, notification.payload ?? '', onError));
    next.on('error', (error) => {
      if (!closed) onError(error);
      dropped(next);
    });
    next.on('end', () => dropped(next));
    next.connect().then(
      async () => {
        // Queries wait in pg's queue until connected; LISTEN every channel a listener holds.
        await Promise.all([...listeners.keys()].map((name) => next.query(`LISTEN ${next.escapeIdentifier(name)}`)));
        if (client !== next) return;
        up = wasUp = true;
        attempts = 0;
        for (const resolve of waitingForUp.splice(0)) resolve();
      },
      (error: unknown) => {
        if (!closed) onError(error);
        dropped(next);
      },
    );
  }

  function dropped(which: pg.Client): void {
    if (client !== which) return;
    client = undefined;
    which.end().catch(() => undefined);
    const wasLive = up;
    up = false;
    if (closed) return;
    if (wasLive) interruptAll(listeners, onError);
    retryTimer = setTimeout(connect, reconnectDelay(++attempts));
    retryTimer.unref();
  }

  return {
    name: 'postgres',

    get available() {
      // Before the first connection there is nothing to report: LISTENs wait for it.
      return !closed && (up || !wasUp);
    },

    async publish(channel, message) {
      if (closed) throw StorageFailure.unavailable('postgres pub/sub is closed');
      const payload = Buffer.byteLength(message) > MAX_NOTIFY_PAYLOAD_BYTES ? '' : message;
      try {
        await publisher.query('SELECT pg_notify($1, $2)', [serverChannelName(options.namespace, channel), payload]);
      } catch (error) {
        throw StorageFailure.unavailable(`postgres notify failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    },

    listen(channel, onMessage, onInterrupted) {
      if (closed) throw StorageFailure.unavailable('postgres pub/sub is closed');
      const name = serverChannelName(options.namespace, channel);
      // A fresh object per call: the same callback listening twice counts twice.
      const listener: Listener = { onMessage, onInterrupted };
      let set = listeners.get(name);
      if (set === undefined) {
        set = new Set();
        listeners.set(name, set);
        if (client === undefined && retryTimer === undefined) connect();
        // While connecting the LISTEN waits in pg's queue; while reconnecting, connect() issues it.
        else if (client !== undefined) track(client, client.query(`LISTEN ${client.escapeIdentifier(name)}`));
      }
      set.add(listener);
      const mine = set;
      let active = true;
      return () => {
        if (!active) return;
        active = false;
        mine.delete(listener);
        if (mine.size === 0 && listeners.get(name) === mine) {
          listeners.delete(name);
          if (!closed && client !== undefined && up) track(client, client.query(`UNLISTEN ${client.escapeIdentifier(name)}`));
        }
      };
    },

    async subscribed() {
      for (;;) {
        while (pending.size > 0) await Promise.all(pending);
        if (up || closed) return;
        // Not connected: confirmed once a connection has LISTENed every channel (callers bound the wait).
        await new Promise<void>((resolve) => waitingForUp.push(resolve));
      }
    },

    async ping() {
      await publisher.query('SELECT 1');
    },

    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(retryTimer);
      listeners.clear();
      for (const resolve of waitingForUp.splice(0)) resolve();
      waitingForUp = [];
      const last = client;
      client = undefined;
      up = false;
      await Promise.all([publisher.end().catch(() => undefined), last?.end().catch(() => undefined)]);
    },
  };
}
