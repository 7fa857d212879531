/**
 * The reset budget: one bucket per client key (IPv6 per /64), a burst of a second's resets, a
 * protocol error costing ten; a client in debt owes until repaid, and its new connections wait
 * until an eighth of a second's budget is saved; a trusted proxy's connections never wait.
 */
import { describe, expect, it } from 'vitest';
import { ClientResetRate, PROTOCOL_ERROR_COST } from './reset-rate.ts';

function clock() {
  let now = 0;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('ClientResetRate', () => {
  it("takes a second's resets, then the client owes until it has repaid", () => {
    const time = clock();
    const rate = new ClientResetRate(100, { now: time.now });
    for (let i = 0; i < 100; i++) expect(rate.reset('192.0.2.1')).toBe(false);
    expect(rate.owes('192.0.2.1')).toBe(false);
    expect(rate.reset('192.0.2.1')).toBe(true);
    expect(rate.owes('192.0.2.1')).toBe(true);
    // Another client is untouched.
    expect(rate.owes('192.0.2.2')).toBe(false);
    expect(rate.reset('192.0.2.2')).toBe(false);
    time.advance(10);
    expect(rate.owes('192.0.2.1')).toBe(false);
    expect(rate.stats).toEqual({ resets: 102, protocolErrors: 0, throttled: { held: 0, cut: 0, refused: 0 } });
  });

  it('charges a protocol error as ten resets', () => {
    const rate = new ClientResetRate(20, { now: clock().now });
    expect(PROTOCOL_ERROR_COST).toBe(10);
    expect(rate.protocolError('192.0.2.1')).toBe(false);
    expect(rate.protocolError('192.0.2.1')).toBe(false);
    expect(rate.protocolError('192.0.2.1')).toBe(true);
    expect(rate.stats.protocolErrors).toBe(3);
  });

  it("holds a debtor's new connections until an eighth of a second's budget is saved; a proxy's never", () => {
    const time = clock();
    const rate = new ClientResetRate(80, { now: time.now, isProxy: (address) => address === '192.0.2.9' });
    expect(rate.connectionDebtMs('192.0.2.1')).toBe(0);
    for (let i = 0; i < 120; i++) rate.reset('192.0.2.1');
    for (let i = 0; i < 120; i++) rate.reset('192.0.2.9');
    // 40 owed (500 ms), then 10 to save (125 ms).
    expect(rate.connectionDebtMs('::ffff:192.0.2.1')).toBeCloseTo(625);
    expect(rate.connectionDebtMs('192.0.2.9')).toBe(0);
    expect(rate.carriesOthers('192.0.2.9')).toBe(true);
    time.advance(500);
    // Repaid: a client that owes nothing is not held, whatever it has saved.
    expect(rate.connectionDebtMs('192.0.2.1')).toBe(0);
    expect(rate.connectionDebtMs(undefined)).toBe(0);
  });

  it('keys a new connection of an IPv6 client per /64', () => {
    const rate = new ClientResetRate(1, { now: clock().now });
    rate.reset('2001:db8:1:2::/64');
    rate.reset('2001:db8:1:2::/64');
    expect(rate.connectionDebtMs('2001:db8:1:2:ffff::9')).toBeGreaterThan(0);
    expect(rate.connectionDebtMs('2001:db8:1:3::1')).toBe(0);
  });

  it('counts how clients were held back', () => {
    const rate = new ClientResetRate(1);
    rate.noteThrottled('held');
    rate.noteThrottled('cut');
    rate.noteThrottled('cut');
    expect(rate.stats.throttled).toEqual({ held: 1, cut: 2, refused: 0 });
  });
});
