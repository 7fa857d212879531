/**
 * Pauses and resumes the reading of one request body for the host's reasons: the guest's queue is
 * full (exchange.ts), or the client spent its budget of body pieces (host/admission/piece-rate.ts).
 * Reading resumes once no reason holds. A body of a client already in debt starts paused.
 *
 * What a pause stops:
 * - HTTP/1.1: the request and its socket, so nothing more is read from the kernel (the parser
 *   finishes the buffer it has, up to 64 KiB, ~11,000 one-byte chunks, charged to the client once
 *   the read is through). `req.pause()` alone lets the parser go on until the request's readable
 *   buffer is full (16 KiB of pieces), and the request's own read would resume the socket.
 * - HTTP/2, a full queue: the stream (Node stops its WINDOW_UPDATEs).
 * - HTTP/2, pieces owed: the connection's stream windows, held at 0 (http2-window.ts), so the
 *   client can send only what it had in flight (at most a window, 65,535 one-byte frames, per
 *   stream). The session's socket cannot be paused (ERR_HTTP2_NO_SOCKET_MANIPULATION), and a
 *   paused stream would keep each frame it still receives as an object of its own.
 */
import type { Http2Session } from 'node:http2';
import type { DebtBucket } from '../admission/debt-bucket.ts';
import type { ClientPieceRate } from '../admission/piece-rate.ts';
import { clientKey } from '../../src/contract/client-key.ts';
import { canonicalAddress } from '../net/cidr.ts';
import type { ConnectionDebt } from './connection-gate.ts';
import type { NodeRequest } from '../net/node-http.ts';
import { holdWindows, releaseWindows } from './http2-window.ts';
import type { IntervalLog } from './interval-log.ts';

const PIECE_RATE_MESSAGE = 'request bodies slowed: their client sent more body pieces (HTTP/1.1 chunks, HTTP/2 DATA frames) a second than its budget';

/** A paused body resumes once its client has saved 1/RESUME_SHARE of a second's pieces. */
const RESUME_SHARE = 8;

export type PauseReason = 'queue' | 'pieces';

/** What the client's budget needs: the budgets, and where the throttling is logged. */
export interface PieceRateContext {
  readonly rate: ClientPieceRate;
  readonly events: IntervalLog;
}

export class BodyFlow {
  readonly #req: NodeRequest;
  readonly #reasons = new Set<PauseReason>();
  readonly #budget: { client: string; bucket: DebtBucket; done: () => void } | undefined;
  readonly #pieces: PieceRateContext | undefined;
  /** Bytes buffered in the request that their client was charged for before they were delivered. */
  #charged = 0;
  /** The HTTP/2 connection whose windows this body holds at 0. */
  #heldSession: Http2Session | undefined;

  /** Without `pieces` (the budget off), only the queue pauses the body. */
  constructor(req: NodeRequest, pieces?: PieceRateContext) {
    this.#req = req;
    this.#pieces = pieces;
    this.#budget = pieces?.rate.open(req);
    if (this.#budget) {
      const { done } = this.#budget;
      req.once('end', done);
      req.once('close', done);
      // A client in debt starts no body before it is repaid (a new request or stream is no way around it).
      if (this.#budget.bucket.msUntil(0) > 0) this.#throttle(this.#budget);
    }
  }

  /** Called for each 'data' event of `bytes`: one piece of the client's budget, unless charged already. */
  piece(bytes: number): void {
    const budget = this.#budget;
    if (budget === undefined) return;
    if (this.#charged > 0) {
      this.#charged -= bytes;
      return;
    }
    if (budget.bucket.take() || this.#reasons.has('pieces')) return;
    this.#throttle(budget);
  }

  #throttle(budget: { client: string; bucket: DebtBucket }): void {
    const pieces = this.#pieces!;
    pieces.rate.noteThrottled();
    pieces.events.note('warn', PIECE_RATE_MESSAGE, { code: 'body_piece_rate', client: budget.client, rate: pieces.rate.rate });
    this.hold('pieces');
    // HTTP/1.1: the parser goes on through the read it has, into the paused request. Those pieces
    // cost as much now as when delivered, and a client that closes its paused connections must not
    // escape them: charged once the read is through, in bytes (a piece holds at least one).
    if (this.#req.httpVersionMajor < 2) {
      setImmediate(() => {
        const unread = this.#req.readableLength - Math.max(0, this.#charged);
        if (unread <= 0) return;
        budget.bucket.charge(unread);
        this.#charged = Math.max(0, this.#charged) + unread;
      });
    }
    // Resumed once an eighth of a second's pieces are saved, not at the first token: a pause per
    // piece would cost more than the piece (and pieces read meanwhile go on taking tokens).
    const level = pieces.rate.rate / RESUME_SHARE;
    const repaid = () => {
      const more = budget.bucket.msUntil(level);
      if (more > 0) setTimeout(repaid, more).unref();
      else this.release('pieces');
    };
    repaid();
  }

  hold(reason: PauseReason): void {
    if (this.#reasons.has(reason)) return;
    const wasPaused = this.#paused();
    this.#reasons.add(reason);
    const req = this.#req;
    // HTTP/2 owes pieces: its connection's windows are held at 0 instead (http2-window.ts), unless
    // the connection is a trusted proxy's, whose other clients must not wait: then the stream alone
    // pauses (its window bounds it, and a proxy forwards DATA in its own frames, not one per byte).
    const session = 'stream' in req ? req.stream.session : undefined;
    if (reason === 'pieces' && session && !this.#pieces!.rate.carriesOthers(req.socket?.remoteAddress)) {
      this.#heldSession = session;
      return holdWindows(session);
    }
    if (wasPaused) return;
    req.pause();
    if (req.httpVersionMajor < 2) req.socket?.pause();
  }

  release(reason: PauseReason): void {
    if (!this.#reasons.delete(reason)) return;
    const req = this.#req;
    // The connection held, even if this stream has closed since.
    const session = reason === 'pieces' ? this.#heldSession : undefined;
    if (session) {
      this.#heldSession = undefined;
      return releaseWindows(session);
    }
    if (this.#paused()) return;
    req.resume();
    // After the body's end the request no longer reads, so it would not resume its socket itself.
    if (req.httpVersionMajor < 2) req.socket?.resume();
  }

  /** Whether a reason that pauses the request itself holds (on HTTP/2, pieces only through a proxy's connection). */
  #paused(): boolean {
    if (!('stream' in this.#req) || this.#heldSession === undefined) return this.#reasons.size > 0;
    return this.#reasons.has('queue');
  }
}

/** What a client's unpaid pieces make its new connections wait for (connection-gate.ts), logged as a paused body is. */
export function pieceDebt(rate: ClientPieceRate, events: IntervalLog): ConnectionDebt {
  return {
    connectionDebtMs: (peer) => rate.connectionDebtMs(peer),
    held(peer) {
      rate.noteThrottled();
      events.note('warn', PIECE_RATE_MESSAGE, { code: 'body_piece_rate', client: clientKey(canonicalAddress(peer)), rate: rate.rate });
    },
  };
}
