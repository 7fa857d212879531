/**
 * Reads a new connection only once its peer owes nothing: the body pieces it sent past its budget
 * (host/admission/piece-rate.ts), the streams it reset past its budget (reset-rate.ts). Each new
 * connection's first read would otherwise bring more of what the client owes (up to 64 KiB of
 * one-byte chunks; on HTTP/2, ~1,500 streams opened and reset), so a client in debt could open
 * connection after connection. Kept unread (the kernel holds its bytes, and a client that writes
 * stalls on its own buffers), then read once repaid, or closed after `SNIFF_TIMEOUT_MS` (the time
 * any new connection has to show its protocol): a client that owes more than that waits that long
 * for each connection it opens, instead of being refused at once and reconnecting in a loop that
 * would cost the host an accept each time. At most `MAX_HELD_PER_CLIENT` connections of one client
 * are held at once (each is a file descriptor); beyond, they are closed at once. A trusted proxy's peer
 * address owes nothing here: its connections carry other clients (their own debts are met on their
 * streams).
 */
import type net from 'node:net';
import { clientKey } from '../../src/contract/client-key.ts';
import { canonicalAddress } from '../net/cidr.ts';

/** A connection that sends nothing recognisable within this time is closed (server.ts), held ones too. */
export const SNIFF_TIMEOUT_MS = 10_000;
/** Connections of one client held at once, at most: far more than a browser opens, far fewer than the host's descriptors. */
export const MAX_HELD_PER_CLIENT = 256;
/**
 * Once a client has repaid, its held connections are read one per this interval, not all at once:
 * each first read may bring a burst (on HTTP/2, ~1,500 streams parsed in one go), and the first
 * one read puts a client that goes on into debt again, before the next.
 */
export const RELEASE_SPACING_MS = 250;

/** Held connections by client (IPv6 per /64), and when one was last read: forgotten when none is held. */
const heldByClient = new Map<string, { held: number; releasedAt: number }>();

/** One thing a peer may owe: how long until its new connection may be read, and what to note when one is held for it. */
export interface ConnectionDebt {
  connectionDebtMs(peer: string | undefined): number;
  /** A connection of `peer` is held for this debt (logged, counted). */
  held(peer: string): void;
}

/** Calls `route` once `socket`'s peer owes none of `debts`, at once when it owes nothing; a socket held meanwhile is paused (`route` resumes it). */
export function whenRepaid(socket: net.Socket, debts: readonly ConnectionDebt[], route: () => void, timeoutMs = SNIFF_TIMEOUT_MS): void {
  const peer = socket.remoteAddress;
  const owedMs = () => Math.max(0, ...debts.map((debt) => debt.connectionDebtMs(peer)));
  if (peer === undefined || owedMs() === 0) return route();
  for (const debt of debts) if (debt.connectionDebtMs(peer) > 0) debt.held(peer);
  const client = clientKey(canonicalAddress(peer));
  const record = heldByClient.get(client) ?? { held: 0, releasedAt: -Infinity };
  if (record.held >= MAX_HELD_PER_CLIENT) return void socket.destroy();
  record.held++;
  heldByClient.set(client, record);
  let holding = true;
  const letGo = () => {
    if (!holding) return;
    holding = false;
    if (--record.held === 0 && heldByClient.get(client) === record) heldByClient.delete(client);
  };
  socket.pause();
  const onError = () => socket.destroy();
  socket.on('error', onError);
  socket.once('close', letGo);
  const deadline = performance.now() + timeoutMs;
  const check = () => {
    if (socket.destroyed) return;
    const now = performance.now();
    const more = Math.max(owedMs(), record.releasedAt + RELEASE_SPACING_MS - now);
    if (more > 0) {
      const left = deadline - now;
      if (left <= 0) socket.destroy();
      else setTimeout(check, Math.min(more, left)).unref();
      return;
    }
    record.releasedAt = now;
    letGo();
    socket.off('error', onError);
    socket.off('close', letGo);
    route();
  };
  check();
}
