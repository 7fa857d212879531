/**
 * The host's overload defences in one place, in the order a request meets them: `DEFENCES` says
 * which exist, where each acts and how it answers; `clientDefences` and `portDefences` make the
 * ones a host and each of its ports hold. host/http/server.ts applies them at those checkpoints,
 * in this order; host/app.ts gives the pool (host/guest/pool.ts) its wait queues (wait-queue.ts).
 * docs/security.md tells each defence with the attack that tests it.
 */
import type { ClientAddressOf } from '../net/client-address.ts';
import { rangeMatcher } from '../net/cidr.ts';
import { ClientExchangeLimit } from './client-limit.ts';
import { FairShare, type FairShareOptions } from './fair-share.ts';
import { ClientPieceRate } from './piece-rate.ts';
import { ConnectionTurns } from './pipeline.ts';
import { PrereadBudget } from './preread-budget.ts';
import { ClientResetRate } from './reset-rate.ts';

/** Where on its way a request meets a defence, in order. */
export type Checkpoint = 'connection' | 'stream' | 'turn' | 'exchange' | 'body' | 'guest' | 'response';
export const CHECKPOINTS: readonly Checkpoint[] = ['connection', 'stream', 'turn', 'exchange', 'body', 'guest', 'response'];

export interface Defence {
  readonly name: string;
  readonly at: Checkpoint;
  /** The module that decides (the server applies it at `at`). */
  readonly module: string;
  /** What a request past the bound gets. */
  readonly answer: string;
}

/** Every overload defence, in the order a request meets them. */
export const DEFENCES = [
  {
    name: 'connection debt',
    at: 'connection',
    module: 'host/http/connection-gate.ts',
    answer: 'a new connection of a client that owes body pieces or stream resets waits unread',
  },
  { name: 'streams per connection', at: 'connection', module: 'host/http/server.ts', answer: 'HTTP/2 streams past 100 at once: RST_STREAM REFUSED_STREAM (Node)' },
  {
    name: 'reset rate',
    at: 'stream',
    module: 'host/admission/reset-rate.ts',
    answer: "past the client's budget of resets: GOAWAY ENHANCE_YOUR_CALM, or the stream refused behind a proxy",
  },
  { name: 'connection turns', at: 'turn', module: 'host/admission/pipeline.ts', answer: "waits for its connection's turn: pipelined HTTP/1.1 one at a time, HTTP/2 a few" },
  { name: 'start after the read', at: 'turn', module: 'host/admission/after-read.ts', answer: "an HTTP/2 stream reset in its connection's read never starts" },
  {
    name: 'exchanges per client',
    at: 'exchange',
    module: 'host/admission/client-limit.ts',
    answer: "429 too_many_exchanges (gRPC RESOURCE_EXHAUSTED) past the client's exchanges in flight",
  },
  {
    name: 'body pre-read',
    at: 'body',
    module: 'host/http/body-preread.ts',
    answer: '413 past 256 KiB declared, 408 when the body is late; all pre-reads share a budget (preread-budget.ts)',
  },
  { name: 'body piece rate', at: 'body', module: 'host/admission/piece-rate.ts', answer: "the client's bodies are read no faster than its pieces a second" },
  { name: 'fair share', at: 'guest', module: 'host/admission/fair-share.ts', answer: 'an ordinary request waits while its client has its share of the guest' },
  { name: 'wait queue', at: 'guest', module: 'host/admission/wait-queue.ts', answer: '503 queue_full or deadline when no instance comes (per lane, per client in turn)' },
  { name: 'instance limit', at: 'guest', module: 'host/admission/limits.ts', answer: 'the pool never grows past the memory budget (memory-budget.ts)' },
  { name: 'send timeout', at: 'response', module: 'host/http/send-timeout.ts', answer: 'a response its client stops reading is cut' },
] as const satisfies readonly Defence[];

/** The per-client bounds a host's settings switch on (0: off); one of each per host thread, shared by its ports. */
export interface ClientDefences {
  clientLimit?: ClientExchangeLimit | undefined;
  pieceRate?: ClientPieceRate | undefined;
  resetRate?: ClientResetRate | undefined;
}

export interface ClientSettings {
  clientExchangeLimit: number;
  bodyPieceRate: number;
  clientResetRate: number;
  trustedProxies: readonly string[];
}

export function clientDefences(settings: ClientSettings, clientAddress: ClientAddressOf): ClientDefences {
  // Peers whose connections carry other clients: never held back as a whole.
  const isProxy = settings.trustedProxies.length > 0 ? rangeMatcher(settings.trustedProxies) : undefined;
  return {
    clientLimit: settings.clientExchangeLimit > 0 ? new ClientExchangeLimit(settings.clientExchangeLimit, clientAddress) : undefined,
    pieceRate: settings.bodyPieceRate > 0 ? new ClientPieceRate(settings.bodyPieceRate, clientAddress, { isProxy }) : undefined,
    resetRate: settings.clientResetRate > 0 ? new ClientResetRate(settings.clientResetRate, { isProxy }) : undefined,
  };
}

/** The defences one port holds for itself: its connections' turns, its fair share of the guest, its pre-read bytes. */
export interface PortDefences {
  turns: ConnectionTurns;
  fairShare: FairShare;
  prereadBytes: PrereadBudget;
}

export function portDefences(options: { capacity: FairShareOptions['capacity']; onDelay: FairShareOptions['onDelay']; onDeparted: () => void }): PortDefences {
  return {
    turns: new ConnectionTurns(options.onDeparted),
    fairShare: new FairShare({ capacity: options.capacity, onDelay: options.onDelay }),
    prereadBytes: new PrereadBudget(),
  };
}
