/**
 * Host-held streams with guest-produced frames.
 *
 * A relayed stream's guest answered its opening request and returned its instance to the pool;
 * the host keeps the client's connection open here. Clients are grouped by channel, then by
 * (poll path, position). On a wake-up (pub/sub message, polling tick, or fallback tick while
 * pub/sub fails) each group gets ONE poll through the component, and its answer is written to
 * every client of the group, which then moves to the new position (merging with a group already
 * there). So a command costs one guest call per distinct position, not one per client.
 *
 * Never backwards: a group has at most one poll in flight; a wake during it marks the group to
 * poll again once the answer is delivered (from the new position); a client's position is its
 * group's key, and a poll answer moves it only forward.
 *
 * A change committed between the guest's read for the opening request and the client joining a
 * group is not lost: exchanges record the wake epoch when they start, and a client whose channel
 * was woken (or went live) since then is polled at once.
 */
import type { HostLogger } from '../log.ts';
import { describeError } from '../log.ts';
import type { PubSubBackend } from '../pubsub/types.ts';
import type { RelayInstruction } from './headers.ts';
import type { Poller } from './poll.ts';

/** Where a relayed client's bytes go (a Node response in production). */
export interface RelaySink {
  write(bytes: Uint8Array): void;
  /** Bytes written but not yet sent to the client. */
  readonly buffered: number;
  readonly closed: boolean;
  onClose(listener: () => void): void;
  /** Ends the response cleanly (shutdown). */
  end(): void;
  /** Cuts the connection (a client too slow to keep up). */
  destroy(): void;
}

export interface RelayTimings {
  /** Silence after which a client gets a keepalive comment. */
  keepaliveMs: number;
  /** Re-read interval while pub/sub fails. */
  fallbackPollMs: number;
  /** How often a failed subscription is tried again. */
  resubscribeMs: number;
  /** How long the broker may take to confirm a subscription. */
  subscribeTimeoutMs: number;
  /** A failed poll is tried again after this long. */
  retryPollMs: number;
}

export const DEFAULT_TIMINGS: RelayTimings = {
  keepaliveMs: 15_000,
  fallbackPollMs: 1_000,
  resubscribeMs: 3_000,
  subscribeTimeoutMs: 2_000,
  retryPollMs: 1_000,
};

/** A client that lets this much pile up unsent is cut: it would only grow the host's memory. */
const MAX_BUFFERED_BYTES = 1_048_576;
const KEEPALIVE = new TextEncoder().encode(': keepalive\n\n');

export interface RelayStats {
  clients: number;
  groups: number;
  channels: number;
  /** Poll requests sent to the guest since start. */
  polls: number;
}

interface Client {
  readonly sink: RelaySink;
  group: Group;
  lastWrite: number;
}

interface Group {
  readonly channel: Channel;
  readonly path: string;
  after: number;
  readonly clients: Set<Client>;
  polling: boolean;
  /** Woken while its poll was in flight: poll again from the new position. */
  again: boolean;
}

interface Channel {
  readonly key: string;
  readonly name: string;
  readonly mode: RelayInstruction['mode'];
  readonly intervalMs: number;
  readonly groups: Map<string, Group>;
  clients: number;
  state: 'confirming' | 'live' | 'degraded' | 'closed';
  stopListening: (() => void) | undefined;
  /** Epoch at which the subscription became live, and of the last wake. */
  liveSince: number;
  lastWake: number;
  failedAt: number;
  timer: NodeJS.Timeout | undefined;
}

export interface StreamRelayOptions {
  poll: Poller;
  pubsub: PubSubBackend;
  logger: HostLogger;
  timings?: Partial<RelayTimings>;
  now?: () => number;
}

const groupKey = (path: string, after: number) => `${after} ${path}`;

export class StreamRelay {
  readonly #poll: Poller;
  readonly #pubsub: PubSubBackend;
  readonly #logger: HostLogger;
  readonly #timings: RelayTimings;
  readonly #now: () => number;
  readonly #channels = new Map<string, Channel>();
  readonly #clients = new Set<Client>();
  #epoch = 0;
  #polls = 0;
  #keepaliveTimer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(options: StreamRelayOptions) {
    this.#poll = options.poll;
    this.#pubsub = options.pubsub;
    this.#logger = options.logger;
    this.#timings = { ...DEFAULT_TIMINGS, ...options.timings };
    this.#now = options.now ?? (() => performance.now());
  }

  get stats(): RelayStats {
    let groups = 0;
    for (const channel of this.#channels.values()) groups += channel.groups.size;
    return { clients: this.#clients.size, groups, channels: this.#channels.size, polls: this.#polls };
  }

  /** The wake epoch now: an exchange records it when it starts, and passes it to `adopt`. */
  mark(): number {
    return this.#epoch;
  }

  /**
   * Takes over a client whose guest response (already written to `sink`) carried `instruction`.
   * `path` is the request's path: polls for this client go there.
   */
  adopt(sink: RelaySink, path: string, instruction: RelayInstruction, mark: number): void {
    if (this.#closed) return sink.end();
    if (sink.closed) return;
    const channel = this.#channel(instruction);
    const client: Client = { sink, group: this.#group(channel, path, instruction.after), lastWrite: this.#now() };
    client.group.clients.add(client);
    channel.clients++;
    this.#clients.add(client);
    sink.onClose(() => this.#remove(client));
    this.#keepaliveTimer ??= setInterval(() => this.#keepalive(), Math.min(1_000, this.#timings.keepaliveMs)).unref();
    // A wake this client's opening read may have missed: poll its position now (coalesced).
    if (channel.state === 'live' && (channel.liveSince > mark || channel.lastWake > mark)) this.#pollGroup(client.group);
  }

  /** Ends every relayed stream and stops listening (graceful shutdown). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const client of [...this.#clients]) client.sink.end();
    for (const channel of [...this.#channels.values()]) this.#closeChannel(channel);
    this.#clients.clear();
    clearInterval(this.#keepaliveTimer);
    this.#keepaliveTimer = undefined;
  }

  #channel(instruction: RelayInstruction): Channel {
    const key = `${instruction.mode} ${instruction.intervalMs} ${instruction.channel}`;
    const existing = this.#channels.get(key);
    if (existing) return existing;
    const channel: Channel = {
      key,
      name: instruction.channel,
      mode: instruction.mode,
      intervalMs: instruction.intervalMs,
      groups: new Map(),
      clients: 0,
      state: 'confirming',
      stopListening: undefined,
      liveSince: 0,
      lastWake: 0,
      failedAt: -Infinity,
      timer: undefined,
    };
    this.#channels.set(key, channel);
    if (channel.mode === 'pubsub') this.#listen(channel);
    else {
      channel.state = 'live';
      if (channel.mode === 'polling') channel.timer = setInterval(() => this.#pollAll(channel), channel.intervalMs);
    }
    return channel;
  }

  #group(channel: Channel, path: string, after: number): Group {
    const key = groupKey(path, after);
    let group = channel.groups.get(key);
    if (!group) {
      group = { channel, path, after, clients: new Set(), polling: false, again: false };
      channel.groups.set(key, group);
    }
    return group;
  }

  #remove(client: Client): void {
    if (!this.#clients.delete(client)) return;
    const { group } = client;
    group.clients.delete(client);
    const channel = group.channel;
    channel.clients--;
    if (group.clients.size === 0 && !group.polling) channel.groups.delete(groupKey(group.path, group.after));
    if (channel.clients === 0) this.#closeChannel(channel);
    if (this.#clients.size === 0) {
      clearInterval(this.#keepaliveTimer);
      this.#keepaliveTimer = undefined;
    }
  }

  #closeChannel(channel: Channel): void {
    channel.state = 'closed';
    clearInterval(channel.timer);
    channel.timer = undefined;
    channel.stopListening?.();
    channel.stopListening = undefined;
    if (this.#channels.get(channel.key) === channel) this.#channels.delete(channel.key);
  }

  // --- wake-ups -------------------------------------------------------------------------------

  #listen(channel: Channel): void {
    if (this.#pubsub.available === false) return this.#degrade(channel, 'the realtime broker is unavailable');
    let stop: () => void;
    try {
      stop = this.#pubsub.listen(
        channel.name,
        () => this.#wake(channel),
        () => this.#interrupted(channel),
      );
    } catch (error) {
      return this.#degrade(channel, describeError(error));
    }
    channel.stopListening = stop;
    if (channel.state !== 'degraded') channel.state = 'confirming';
    void this.#confirmed().then((ok) => {
      if (channel.stopListening !== stop || channel.state === 'closed') return;
      if (!ok) {
        stop();
        channel.stopListening = undefined;
        return this.#degrade(channel, 'the realtime broker did not confirm the subscription in time');
      }
      if (channel.state === 'degraded') {
        this.#logger.log('info', 'realtime subscription restored; back to push', { code: 'realtime_resubscribed', channel: channel.name });
      }
      clearInterval(channel.timer);
      channel.timer = undefined;
      channel.state = 'live';
      channel.liveSince = ++this.#epoch;
      // Anything committed before the subscription existed: re-read once.
      this.#pollAll(channel);
    });
  }

  async #confirmed(): Promise<boolean> {
    if (this.#pubsub.subscribed === undefined) return true;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), this.#timings.subscribeTimeoutMs)));
    try {
      return await Promise.race([this.#pubsub.subscribed().then(() => true), timedOut]);
    } finally {
      clearTimeout(timer);
    }
  }

  #interrupted(channel: Channel): void {
    channel.stopListening?.();
    channel.stopListening = undefined;
    if (channel.state !== 'closed') this.#degrade(channel, 'the realtime subscription was interrupted');
  }

  /** Pub/sub fails: re-read on an interval, and try to subscribe again every few seconds. */
  #degrade(channel: Channel, reason: string): void {
    if (channel.state !== 'degraded') {
      // Logged once per outage and channel, not at every retry.
      this.#logger.log('warn', 'realtime subscribe failed; re-reading the store on an interval', { code: 'realtime_subscribe_failed', channel: channel.name, error: reason });
    }
    channel.state = 'degraded';
    channel.failedAt = this.#now();
    clearInterval(channel.timer);
    channel.timer = setInterval(() => {
      this.#pollAll(channel);
      if (channel.stopListening === undefined && this.#now() - channel.failedAt >= this.#timings.resubscribeMs) {
        channel.failedAt = this.#now();
        this.#listen(channel);
      }
    }, this.#timings.fallbackPollMs);
  }

  #wake(channel: Channel): void {
    channel.lastWake = ++this.#epoch;
    this.#pollAll(channel);
  }

  #pollAll(channel: Channel): void {
    for (const group of [...channel.groups.values()]) this.#pollGroup(group);
  }

  // --- polls ----------------------------------------------------------------------------------

  #pollGroup(group: Group): void {
    if (this.#closed || group.channel.state === 'closed') return;
    if (group.polling) {
      group.again = true;
      return;
    }
    group.polling = true;
    group.again = false;
    this.#polls++;
    const from = group.after;
    this.#poll(group.path, from).then(
      (answer) => this.#deliver(group, from, answer.bytes, answer.after),
      (error: unknown) => {
        this.#logger.log('error', 'a relayed stream poll failed', { code: 'relay_poll_failed', error: describeError(error) });
        this.#deliver(group, from, new Uint8Array(0), from);
        // Retry later: the wake that caused this poll must not be lost.
        setTimeout(() => {
          const current = group.channel.groups.get(groupKey(group.path, from));
          if (current) this.#pollGroup(current);
        }, this.#timings.retryPollMs).unref();
      },
    );
  }

  #deliver(group: Group, from: number, bytes: Uint8Array, reported: number): void {
    group.polling = false;
    const again = group.again;
    group.again = false;
    const channel = group.channel;
    if (this.#closed || channel.state === 'closed') return;
    let after = reported;
    if (after < from) {
      this.#logger.log('error', 'a relay poll answered a position older than asked; ignored', { code: 'relay_position_backwards', asked: from, answered: after });
      after = from;
      bytes = new Uint8Array(0);
    }
    if (bytes.byteLength > 0) for (const client of [...group.clients]) this.#write(client, bytes);
    const key = groupKey(group.path, from);
    // Groups are deleted only by their own key holder: another group may own the key by now.
    const unlist = () => channel.groups.get(key) === group && channel.groups.delete(key);
    if (group.clients.size === 0) {
      unlist();
      return;
    }
    let target = group;
    if (after > from) {
      unlist();
      target = this.#group(channel, group.path, after);
      for (const client of group.clients) {
        target.clients.add(client);
        client.group = target;
      }
      group.clients.clear();
    }
    if (again) this.#pollGroup(target);
  }

  #write(client: Client, bytes: Uint8Array): void {
    if (client.sink.closed) return this.#remove(client);
    if (client.sink.buffered > MAX_BUFFERED_BYTES) {
      this.#logger.log('warn', 'cut a relayed stream whose client does not keep up', { code: 'relay_client_too_slow' });
      client.sink.destroy();
      return this.#remove(client);
    }
    client.sink.write(bytes);
    client.lastWrite = this.#now();
  }

  #keepalive(): void {
    const due = this.#now() - this.#timings.keepaliveMs;
    for (const client of [...this.#clients]) if (client.lastWrite <= due) this.#write(client, KEEPALIVE);
  }
}
