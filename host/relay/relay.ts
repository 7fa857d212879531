/**
 * Host-held streams with guest-produced frames.
 *
 * A relayed stream's guest answered its opening request and returned its instance to the pool;
 * the host keeps the client's connection open here. Clients are grouped by channel, then by poll
 * path (a feed). On a wake-up (pub/sub message, polling tick, or fallback tick while pub/sub
 * fails) each feed gets ONE poll through the component, at the oldest position among its
 * clients, whatever their number and positions. The answer is the whole state at its position
 * (frames supersede each other: the relay protocol, headers.ts), so it is written to every client
 * behind that position, which moves there. So a command costs one guest call per feed.
 *
 * Never backwards: a feed has at most one poll in flight; a wake during it marks the feed to poll
 * again once the answer is delivered; an answer moves a client only forward.
 *
 * A change committed between the guest's read for the opening request and the client joining is
 * not lost: exchanges record the wake epoch when they start, and a client whose channel was woken
 * (or went live) since then is polled at once; a client behind the newest answer the feed has is
 * given that answer as it joins.
 *
 * Slow clients: see delivery.ts (the newest frame only, then cut after `stallMs` without room).
 *
 * Bounded fan-out: writing a frame costs the host a write per client (a system call each), and a
 * client that never reads costs as much as one that does until the kernel's buffers for its
 * connection fill, hundreds of KB later. So the relay writes at most `writesPerSecond` frames to
 * clients, all streams together: a feed polls again no sooner than its share of that allows
 * (its clients / `writesPerSecond` after its last poll), and the wakes in between are coalesced into
 * that poll. A few hundred clients see every change at once; thousands see the newest state a
 * few times a second, whatever the write rate, and the guest is polled as often.
 *
 * Bounded per client: one client may hold over a hundred streams (the per-client exchange limit),
 * so it also gets only its share of those writes (client-share.ts: a token bucket of frames per
 * client, whatever its number of streams). Its streams beyond the share keep the newest frame
 * pending and get it when the share allows (the tick), oldest waiting first. A feed polls no sooner
 * than one of its clients has the tokens to take the answer on all its streams of the feed, so a
 * client's many streams do not drive polls either: one client alone with 128 streams is polled for
 * a few times a second, however often the others write.
 */
import type { HostLogger } from '../log.ts';
import { describeError } from '../log.ts';
import type { PubSubBackend } from '../pubsub/types.ts';
import { ClientFrameShare } from './client-share.ts';
import { RelayClient, type RelaySink } from './delivery.ts';
import type { RelayInstruction } from './headers.ts';
import type { Poller } from './poll.ts';

export type { RelaySink } from './delivery.ts';

export interface RelayTimings {
  /** Silence after which a client gets its stream's keepalive bytes (if its framing has any). */
  keepaliveMs: number;
  /** Re-read interval while pub/sub fails. */
  fallbackPollMs: number;
  /** How often a failed subscription is tried again. */
  resubscribeMs: number;
  /** How long the broker may take to confirm a subscription. */
  subscribeTimeoutMs: number;
  /** A failed poll is tried again after this long. */
  retryPollMs: number;
  /** How often a congested client's pending frame is retried. */
  flushMs: number;
  /** A client whose connection takes none of its bytes for this long is cut. */
  stallMs: number;
  /** Frames written to clients per second at most, all streams together; each client gets a share (see above). */
  writesPerSecond: number;
}

export const DEFAULT_TIMINGS: RelayTimings = {
  keepaliveMs: 15_000,
  fallbackPollMs: 1_000,
  resubscribeMs: 3_000,
  subscribeTimeoutMs: 2_000,
  retryPollMs: 1_000,
  flushMs: 250,
  stallMs: 30_000,
  // About a tenth of a core at tens of microseconds per write (system call included).
  writesPerSecond: 5_000,
};

/** A client that lets this much pile up unsent is cut: it would only grow the host's memory. */
export const MAX_BUFFERED_BYTES = 262_144;
/** `relay_client_too_slow` is logged at most this often, with the number of clients cut since. */
const CUT_LOG_INTERVAL_MS = 10_000;

export interface RelayStats {
  clients: number;
  feeds: number;
  channels: number;
  /** Poll requests sent to the guest since start. */
  polls: number;
  /** Frames a congested client never got because a newer one replaced them, since start. */
  coalesced: number;
  /** Frames held pending because their client had used its share of the writes, since start. */
  deferred: number;
  /** Clients cut for not taking their bytes, since start. */
  cut: number;
  /** Bytes the host holds for its clients now (unsent and pending frames). */
  heldBytes: number;
}

interface Feed {
  readonly channel: Channel;
  readonly path: string;
  readonly clients: Set<RelayClient>;
  /** Its clients' keys, with how many of its streams each holds. */
  readonly keys: Map<string, number>;
  /** The newest position an answer reached, and that answer (the state there). */
  head: number;
  latest: Uint8Array | undefined;
  polling: boolean;
  /** Woken while its poll was in flight: poll again once the answer is delivered. */
  again: boolean;
  /** When its last poll started, and the timer of a poll deferred to keep the write rate. */
  polledAt: number;
  deferred: NodeJS.Timeout | undefined;
}

interface Channel {
  readonly key: string;
  readonly name: string;
  readonly mode: RelayInstruction['mode'];
  readonly intervalMs: number;
  readonly feeds: Map<string, Feed>;
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

export class StreamRelay {
  readonly #poll: Poller;
  readonly #pubsub: PubSubBackend;
  readonly #logger: HostLogger;
  readonly #timings: RelayTimings;
  readonly #now: () => number;
  readonly #channels = new Map<string, Channel>();
  readonly #clients = new Map<RelayClient, Feed>();
  /** Clients holding a pending frame (no room, or no token of their client's share), oldest first. */
  readonly #congested = new Set<RelayClient>();
  readonly #share: ClientFrameShare;
  /** Streams adopted without a client key (tests): each counts as a client of its own. */
  #unkeyed = 0;
  #deferred = 0;
  #epoch = 0;
  #polls = 0;
  #coalesced = 0;
  #cut = 0;
  #cutsUnlogged = 0;
  #cutLoggedAt = Number.NEGATIVE_INFINITY;
  #tickTimer: NodeJS.Timeout | undefined;
  #lastKeepaliveCheck = 0;
  #closed = false;

  constructor(options: StreamRelayOptions) {
    this.#poll = options.poll;
    this.#pubsub = options.pubsub;
    this.#logger = options.logger;
    this.#timings = { ...DEFAULT_TIMINGS, ...options.timings };
    this.#now = options.now ?? (() => performance.now());
    this.#share = new ClientFrameShare(this.#timings.writesPerSecond);
  }

  get stats(): RelayStats {
    let feeds = 0;
    for (const channel of this.#channels.values()) feeds += channel.feeds.size;
    let heldBytes = 0;
    for (const client of this.#clients.keys()) heldBytes += client.heldBytes;
    return {
      clients: this.#clients.size,
      feeds,
      channels: this.#channels.size,
      polls: this.#polls,
      coalesced: this.#coalesced,
      deferred: this.#deferred,
      cut: this.#cut,
      heldBytes,
    };
  }

  /** The wake epoch now: an exchange records it when it starts, and passes it to `adopt`. */
  mark(): number {
    return this.#epoch;
  }

  /**
   * Takes over a client whose guest response (already written to `sink`) carried `instruction`.
   * `path` is the request's path: polls for this client go there. `client`: the key of the client
   * the stream belongs to (host/admission/client-limit.ts), whose share of the writes it gets.
   */
  adopt(sink: RelaySink, path: string, instruction: RelayInstruction, mark: number, client?: string): void {
    if (this.#closed) return sink.end();
    if (sink.closed) return;
    const channel = this.#channel(instruction);
    const feed = this.#feed(channel, path);
    const key = client ?? `unkeyed ${++this.#unkeyed}`;
    const now = this.#now();
    const stream = new RelayClient(sink, key, instruction.after, now);
    this.#share.join(key, now);
    feed.keys.set(key, (feed.keys.get(key) ?? 0) + 1);
    feed.clients.add(stream);
    channel.clients++;
    this.#clients.set(stream, feed);
    sink.onClose(() => this.#remove(stream));
    this.#tickTimer ??= setInterval(() => this.#tick(), this.#timings.flushMs).unref();
    // A newer state the relay already has: this client's opening read came before it.
    if (feed.latest !== undefined && feed.head > stream.position) this.#advance(stream, feed.latest, feed.head);
    // A wake this client's opening read may have missed: poll now (coalesced with any poll in flight).
    if (channel.state === 'live' && (channel.liveSince > mark || channel.lastWake > mark)) this.#pollFeed(feed);
  }

  /** Ends every relayed stream and stops listening (graceful shutdown). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const client of [...this.#clients.keys()]) client.sink.end();
    for (const channel of [...this.#channels.values()]) this.#closeChannel(channel);
    this.#clients.clear();
    this.#congested.clear();
    clearInterval(this.#tickTimer);
    this.#tickTimer = undefined;
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
      feeds: new Map(),
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

  #feed(channel: Channel, path: string): Feed {
    let feed = channel.feeds.get(path);
    if (!feed) {
      feed = {
        channel,
        path,
        clients: new Set(),
        keys: new Map(),
        head: 0,
        latest: undefined,
        polling: false,
        again: false,
        polledAt: Number.NEGATIVE_INFINITY,
        deferred: undefined,
      };
      channel.feeds.set(path, feed);
    }
    return feed;
  }

  #remove(client: RelayClient): void {
    const feed = this.#clients.get(client);
    if (!feed) return;
    this.#clients.delete(client);
    this.#congested.delete(client);
    this.#share.leave(client.key, client.owed);
    feed.clients.delete(client);
    const streams = (feed.keys.get(client.key) ?? 1) - 1;
    if (streams > 0) feed.keys.set(client.key, streams);
    else feed.keys.delete(client.key);
    const channel = feed.channel;
    channel.clients--;
    if (feed.clients.size === 0 && !feed.polling && channel.feeds.get(feed.path) === feed) {
      clearTimeout(feed.deferred);
      channel.feeds.delete(feed.path);
    }
    if (channel.clients === 0) this.#closeChannel(channel);
    if (this.#clients.size === 0) {
      clearInterval(this.#tickTimer);
      this.#tickTimer = undefined;
    }
  }

  #closeChannel(channel: Channel): void {
    channel.state = 'closed';
    clearInterval(channel.timer);
    channel.timer = undefined;
    channel.stopListening?.();
    channel.stopListening = undefined;
    for (const feed of channel.feeds.values()) clearTimeout(feed.deferred);
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
    for (const feed of [...channel.feeds.values()]) this.#pollFeed(feed);
  }

  // --- polls ----------------------------------------------------------------------------------

  #pollFeed(feed: Feed): void {
    if (this.#closed || feed.channel.state === 'closed' || feed.clients.size === 0) return;
    if (feed.polling) {
      feed.again = true;
      return;
    }
    if (feed.deferred !== undefined) return; // a poll is due already: this wake is in it
    const now = this.#now();
    const wait = Math.max(feed.polledAt + (this.#clients.size / this.#timings.writesPerSecond) * 1000 - now, this.#shareWait(feed, now));
    if (wait > 0) {
      feed.deferred = setTimeout(() => {
        feed.deferred = undefined;
        this.#pollFeed(feed);
      }, wait);
      feed.deferred.unref();
      return;
    }
    feed.polling = true;
    feed.again = false;
    feed.polledAt = now;
    this.#polls++;
    // The oldest position: the answer (the state) then serves every client of the feed.
    let from = Number.POSITIVE_INFINITY;
    for (const client of feed.clients) from = Math.min(from, client.position);
    this.#poll(feed.path, from).then(
      (answer) => this.#deliver(feed, from, answer.bytes, answer.after),
      (error: unknown) => {
        this.#logger.log('error', 'a relayed stream poll failed', { code: 'relay_poll_failed', error: describeError(error) });
        this.#deliver(feed, from, new Uint8Array(0), from);
        // Retry later: the wake that caused this poll must not be lost.
        setTimeout(() => this.#pollFeed(feed), this.#timings.retryPollMs).unref();
      },
    );
  }

  /** How long until one of the feed's clients has the tokens for the answer on all its streams of the feed. */
  #shareWait(feed: Feed, now: number): number {
    let wait = Number.POSITIVE_INFINITY;
    for (const [key, streams] of feed.keys) {
      wait = Math.min(wait, this.#share.msUntil(key, streams, now));
      if (wait === 0) break;
    }
    return wait === Number.POSITIVE_INFINITY ? 0 : wait;
  }

  #deliver(feed: Feed, from: number, bytes: Uint8Array, after: number): void {
    feed.polling = false;
    const again = feed.again;
    feed.again = false;
    const channel = feed.channel;
    if (this.#closed || channel.state === 'closed') return;
    if (feed.clients.size === 0) {
      if (channel.feeds.get(feed.path) === feed) channel.feeds.delete(feed.path);
      return;
    }
    if (after < from) {
      this.#logger.log('error', 'a relay poll answered a position older than asked; ignored', { code: 'relay_position_backwards', asked: from, answered: after });
    } else if (bytes.byteLength > 0 && after > from) {
      if (after > feed.head) {
        feed.head = after;
        feed.latest = bytes;
      }
      for (const client of [...feed.clients]) if (client.position < after) this.#advance(client, bytes, after);
    } else if (bytes.byteLength > 0) {
      // A notice at the same position (an error frame): for clients with room only.
      for (const client of [...feed.clients]) this.#notice(client, bytes);
    }
    if (again) this.#pollFeed(feed);
  }

  // --- writes ---------------------------------------------------------------------------------

  #advance(client: RelayClient, bytes: Uint8Array, after: number): void {
    if (client.sink.closed) return this.#remove(client);
    const now = this.#now();
    // A stream already waiting for its client's tokens waits on (its client's waiting ones are served in order).
    if (client.advance(bytes, after, now, () => !client.owed && this.#share.take(client.key, now))) this.#coalesced++;
    if (client.hasPending) {
      this.#congested.add(client);
      const owed = client.hasRoom(now);
      if (owed) this.#deferred++;
      this.#owe(client, owed);
    } else this.#owe(client, false);
    this.#cutIfOver(client);
  }

  #owe(client: RelayClient, owed: boolean): void {
    if (client.owed === owed) return;
    client.owed = owed;
    this.#share.owe(client.key, owed);
  }

  #notice(client: RelayClient, bytes: Uint8Array): void {
    if (client.sink.closed) return this.#remove(client);
    client.notice(bytes, this.#now());
    this.#cutIfOver(client);
  }

  #cutIfOver(client: RelayClient): void {
    const now = this.#now();
    if (client.sink.buffered <= MAX_BUFFERED_BYTES && client.stuckFor(now) < this.#timings.stallMs) return;
    this.#cut++;
    this.#cutsUnlogged++;
    // Thousands of stalled clients would be thousands of lines: one per interval, with the count.
    if (now - this.#cutLoggedAt >= CUT_LOG_INTERVAL_MS) {
      this.#logger.log('warn', 'cut relayed streams whose clients do not take their bytes', { code: 'relay_client_too_slow', clients: this.#cutsUnlogged });
      this.#cutLoggedAt = now;
      this.#cutsUnlogged = 0;
    }
    client.sink.destroy();
    this.#remove(client);
  }

  /** Retries pending frames; keepalives after silence; cuts clients stuck too long. */
  #tick(): void {
    const now = this.#now();
    for (const client of [...this.#congested]) {
      if (client.sink.closed) {
        this.#remove(client);
        continue;
      }
      client.flush(now, () => this.#share.take(client.key, now, true));
      if (client.hasPending) this.#owe(client, client.hasRoom(now));
      else {
        this.#congested.delete(client);
        this.#owe(client, false);
      }
      this.#cutIfOver(client);
    }
    if (now - this.#lastKeepaliveCheck < Math.min(1_000, this.#timings.keepaliveMs)) return;
    this.#lastKeepaliveCheck = now;
    const due = now - this.#timings.keepaliveMs;
    for (const client of [...this.#clients.keys()]) {
      const keepalive = client.sink.keepalive;
      if (keepalive !== undefined && client.lastWrite <= due) this.#notice(client, keepalive);
    }
  }
}
