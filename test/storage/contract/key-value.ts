/** The storage contract, key-value: expiring entries, atomic take and increment. */
import { describe, expect, it } from 'vitest';
import { BEYOND_DOUBLE, sleep, failureTag, type ContractContext } from './support.ts';

/**
 * The ttl of the entries that must still be there at first and gone later: the round trips between
 * a set and the check that it is there took over 60 ms on a loaded machine (load 30, PostgreSQL),
 * so a short ttl tested the machine's speed, not expiry.
 */
const TTL_MS = 1_500;

/** Waits until an entry with TTL_MS whose write had returned at `written` (performance.now()) has expired, with a margin. */
const sleepPastTtl = (written: number) => sleep(Math.max(0, written + TTL_MS + 100 - performance.now()));

export function keyValueCases({ open, second }: ContractContext): void {
  describe('key-value', () => {
    it('get of a missing key is none; set then get; set replaces; namespaces are separate', async () => {
      const s = await open();
      expect(await s.keyValue.get('ns', 'k')).toBeUndefined();
      await s.keyValue.set('ns', 'k', 'v1', undefined);
      expect(await s.keyValue.get('ns', 'k')).toBe('v1');
      await s.keyValue.set('ns', 'k', 'v2', undefined);
      expect(await s.keyValue.get('ns', 'k')).toBe('v2');
      expect(await s.keyValue.get('other', 'k')).toBeUndefined();
      await s.keyValue.set('other', 'k', '', undefined);
      expect(await s.keyValue.get('other', 'k')).toBe('');
      expect(await s.keyValue.get('ns', 'k')).toBe('v2');
    });

    it('an entry past its ttl is absent to get, take, delete and increment', async () => {
      const s = await open();
      await s.keyValue.set('ns', 'get', 'v', BigInt(TTL_MS));
      await s.keyValue.set('ns', 'take', 'v', BigInt(TTL_MS));
      await s.keyValue.set('ns', 'delete', 'v', BigInt(TTL_MS));
      await s.keyValue.set('ns', 'incr', '41', BigInt(TTL_MS));
      const lastSet = performance.now();
      expect(await s.keyValue.get('ns', 'get')).toBe('v');
      await sleepPastTtl(lastSet);
      expect(await s.keyValue.get('ns', 'get')).toBeUndefined();
      expect(await s.keyValue.take('ns', 'take')).toBeUndefined();
      expect(await s.keyValue.delete('ns', 'delete')).toBe(false);
      // Expired counts as absent, i.e. 0.
      expect(await s.keyValue.increment('ns', 'incr', 1n, 60_000n)).toBe(1n);
    });

    it('set without a ttl never expires and replaces an expiring entry', async () => {
      const s = await open();
      await s.keyValue.set('ns', 'k', 'temp', 50n);
      await s.keyValue.set('ns', 'k', 'forever', undefined);
      await s.keyValue.set('ns', 'j', 'forever', undefined);
      await sleep(120);
      expect(await s.keyValue.get('ns', 'k')).toBe('forever');
      expect(await s.keyValue.get('ns', 'j')).toBe('forever');
    });

    it('set with a ttl replaces a permanent entry with an expiring one', async () => {
      const s = await open();
      await s.keyValue.set('ns', 'k', 'forever', undefined);
      await s.keyValue.set('ns', 'k', 'temp', 50n);
      expect(await s.keyValue.get('ns', 'k')).toBe('temp');
      await sleep(120);
      expect(await s.keyValue.get('ns', 'k')).toBeUndefined();
    });

    it('take returns the value once and removes it', async () => {
      const s = await open();
      expect(await s.keyValue.take('ns', 'k')).toBeUndefined();
      await s.keyValue.set('ns', 'k', 'code-123', 60_000n);
      expect(await s.keyValue.take('ns', 'k')).toBe('code-123');
      expect(await s.keyValue.take('ns', 'k')).toBeUndefined();
      expect(await s.keyValue.get('ns', 'k')).toBeUndefined();
    });

    it('of many concurrent takes exactly one gets the value', async () => {
      const s = await open();
      const other = (await second()) ?? s;
      await s.keyValue.set('ns', 'once', 'secret', undefined);
      const taken = await Promise.all(Array.from({ length: 10 }, (_, i) => (async () => (i % 2 ? other : s).keyValue.take('ns', 'once'))()));
      expect(taken.filter((v) => v !== undefined)).toEqual(['secret']);
    });

    it('increment: absent counts as 0, returns the new value, readable by get', async () => {
      const s = await open();
      expect(await s.keyValue.increment('rate', 'ip', 1n, 60_000n)).toBe(1n);
      expect(await s.keyValue.increment('rate', 'ip', 1n, 60_000n)).toBe(2n);
      expect(await s.keyValue.increment('rate', 'ip', 10n, 60_000n)).toBe(12n);
      expect(await s.keyValue.increment('rate', 'ip', -20n, 60_000n)).toBe(-8n);
      expect(await s.keyValue.increment('rate', 'ip', 0n, 60_000n)).toBe(-8n);
      expect(await s.keyValue.get('rate', 'ip')).toBe('-8');
      expect(await s.keyValue.increment('rate', 'new', -3n, 60_000n)).toBe(-3n);
    });

    it('increment keeps full s64 precision', async () => {
      const s = await open();
      expect(await s.keyValue.increment('ns', 'k', BEYOND_DOUBLE, 60_000n)).toBe(BEYOND_DOUBLE);
      expect(await s.keyValue.increment('ns', 'k', 2n, 60_000n)).toBe(BEYOND_DOUBLE + 2n);
      expect(await s.keyValue.get('ns', 'k')).toBe((BEYOND_DOUBLE + 2n).toString());
      await s.keyValue.set('ns', 'set', '9007199254740993', undefined);
      expect(await s.keyValue.increment('ns', 'set', 1n, 60_000n)).toBe(9007199254740994n);
    });

    it('increment counts an entry set with set(), and keeps it permanent', async () => {
      const s = await open();
      await s.keyValue.set('ns', 'k', '5', undefined);
      expect(await s.keyValue.increment('ns', 'k', 2n, 50n)).toBe(7n);
      await sleep(120);
      expect(await s.keyValue.get('ns', 'k')).toBe('7');
    });

    it('a new counter expires after its ttl; increments keep the original expiry', async () => {
      const s = await open();
      expect(await s.keyValue.increment('ns', 'window', 1n, BigInt(TTL_MS))).toBe(1n);
      const opened = performance.now();
      await sleep(40);
      // A long ttl here must not extend the window.
      expect(await s.keyValue.increment('ns', 'window', 1n, 60_000n)).toBe(2n);
      expect(await s.keyValue.get('ns', 'window')).toBe('2');
      await sleepPastTtl(opened);
      expect(await s.keyValue.get('ns', 'window')).toBeUndefined();
      // The next window starts from 0 with its own ttl.
      expect(await s.keyValue.increment('ns', 'window', 1n, 60_000n)).toBe(1n);
    });

    it('increment of a non-integer value or past s64 is invalid and leaves the value', async () => {
      const s = await open();
      await s.keyValue.set('ns', 'text', 'abc', undefined);
      expect(await failureTag(() => s.keyValue.increment('ns', 'text', 1n, 60_000n))).toBe('invalid');
      expect(await s.keyValue.get('ns', 'text')).toBe('abc');
      const max = 2n ** 63n - 1n;
      expect(await s.keyValue.increment('ns', 'big', max, 60_000n)).toBe(max);
      expect(await failureTag(() => s.keyValue.increment('ns', 'big', 1n, 60_000n))).toBe('invalid');
      expect(await s.keyValue.get('ns', 'big')).toBe(max.toString());
    });

    it('delete reports whether an entry existed', async () => {
      const s = await open();
      expect(await s.keyValue.delete('ns', 'k')).toBe(false);
      await s.keyValue.set('ns', 'k', 'v', undefined);
      expect(await s.keyValue.delete('ns', 'k')).toBe(true);
      expect(await s.keyValue.delete('ns', 'k')).toBe(false);
      expect(await s.keyValue.get('ns', 'k')).toBeUndefined();
    });

    it('empty namespaces or keys are invalid', async () => {
      const s = await open();
      expect(await failureTag(() => s.keyValue.get('', 'k'))).toBe('invalid');
      expect(await failureTag(() => s.keyValue.set('ns', '', 'v', undefined))).toBe('invalid');
      expect(await failureTag(() => s.keyValue.take('', ''))).toBe('invalid');
      expect(await failureTag(() => s.keyValue.increment('ns', '', 1n, 1000n))).toBe('invalid');
      expect(await failureTag(() => s.keyValue.delete('', 'k'))).toBe('invalid');
    });
  });
}
