/**
 * The gate of new connections: read at once when their client owes nothing; otherwise paused
 * until it has repaid (several of one client's released a spacing apart), closed at the deadline
 * if it owes longer, and closed at once past the number held per client.
 */
import { EventEmitter } from 'node:events';
import type net from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_HELD_PER_CLIENT, RELEASE_SPACING_MS, SNIFF_TIMEOUT_MS, whenRepaid, type ConnectionDebt } from './connection-gate.ts';

class FakeSocket extends EventEmitter {
  paused = false;
  destroyed = false;
  readonly remoteAddress: string;
  constructor(remoteAddress: string) {
    super();
    this.remoteAddress = remoteAddress;
  }
  pause() {
    this.paused = true;
    return this;
  }
  resume() {
    this.paused = false;
    return this;
  }
  destroy() {
    if (this.destroyed) return this;
    this.destroyed = true;
    this.emit('close');
    return this;
  }
}

/** A debt of `untilMs` (on the fake clock) for every peer; counts the connections held for it. */
function debt(untilMs: number): ConnectionDebt & { heldFor: string[] } {
  const heldFor: string[] = [];
  return { heldFor, connectionDebtMs: () => Math.max(0, untilMs - performance.now()), held: (peer) => heldFor.push(peer) };
}

function gate(address: string, debts: ConnectionDebt[]) {
  const socket = new FakeSocket(address);
  const routed = { at: undefined as number | undefined };
  whenRepaid(socket as unknown as net.Socket, debts, () => (routed.at = performance.now()));
  return { socket, routed };
}

describe('whenRepaid()', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reads a connection whose client owes nothing at once', () => {
    const owed = debt(0);
    const { socket, routed } = gate('192.0.2.1', [owed]);
    expect(routed.at).toBe(0);
    expect(socket.paused).toBe(false);
    expect(owed.heldFor).toEqual([]);
  });

  it('holds it paused until its client has repaid, then reads it', () => {
    const start = performance.now();
    const owed = debt(start + 300);
    const { socket, routed } = gate('192.0.2.2', [owed, debt(0)]);
    expect(socket.paused).toBe(true);
    expect(owed.heldFor).toEqual(['192.0.2.2']);
    vi.advanceTimersByTime(299);
    expect(routed.at).toBeUndefined();
    vi.advanceTimersByTime(1);
    expect(routed.at).toBe(start + 300);
    expect(socket.destroyed).toBe(false);
  });

  it('closes it at the deadline when its client owes longer', () => {
    const { socket, routed } = gate('192.0.2.3', [debt(performance.now() + SNIFF_TIMEOUT_MS * 3)]);
    vi.advanceTimersByTime(SNIFF_TIMEOUT_MS - 1);
    expect(socket.destroyed).toBe(false);
    vi.advanceTimersByTime(1);
    expect(socket.destroyed).toBe(true);
    expect(routed.at).toBeUndefined();
  });

  it("reads one client's held connections a spacing apart, not all at once", () => {
    const start = performance.now();
    const owed = debt(start + 100);
    const held = Array.from({ length: 3 }, () => gate('192.0.2.4', [owed]));
    vi.advanceTimersByTime(100 + 2 * RELEASE_SPACING_MS);
    expect(held.map(({ routed }) => routed.at)).toEqual([start + 100, start + 100 + RELEASE_SPACING_MS, start + 100 + 2 * RELEASE_SPACING_MS]);
  });

  it('closes at once what one client opens past the number held', () => {
    const owed = debt(performance.now() + 1_000);
    const held = Array.from({ length: MAX_HELD_PER_CLIENT }, () => gate('192.0.2.5', [owed]));
    expect(held.every(({ socket }) => !socket.destroyed)).toBe(true);
    expect(gate('192.0.2.5', [owed]).socket.destroyed).toBe(true);
    // Another client is held, not closed; a held connection that closes frees its place.
    expect(gate('192.0.2.6', [owed]).socket.destroyed).toBe(false);
    held[0]!.socket.destroy();
    expect(gate('192.0.2.5', [owed]).socket.destroyed).toBe(false);
    vi.advanceTimersByTime(SNIFF_TIMEOUT_MS);
  });
});
