import { describe, expect, it } from 'vitest';
import { LocalTurns } from './local-turns.ts';

describe('LocalTurns', () => {
  it('grants the first caller at once and the others in arrival order', async () => {
    const turns = new LocalTurns();
    const first = turns.enter('s', 1_000);
    expect(first).not.toBeInstanceOf(Promise);
    const order: number[] = [];
    const waiting = [1, 2, 3].map(async (n) => {
      const turn = await turns.enter('s', 1_000);
      order.push(n);
      turn!.leave();
    });
    expect(turns.waiting('s')).toBe(3);
    (first as { leave(): void }).leave();
    await Promise.all(waiting);
    expect(order).toEqual([1, 2, 3]);
    expect(turns.held('s')).toBe(false);
  });

  it('answers undefined when the turn does not come within the wait, and forgets that waiter', async () => {
    const turns = new LocalTurns();
    const holder = turns.enter('s', 1_000) as { leave(): void };
    expect(await turns.enter('s', 20)).toBeUndefined();
    expect(turns.waiting('s')).toBe(0);
    holder.leave();
    expect(turns.held('s')).toBe(false);
  });

  it('leave is idempotent: a second leave does not pass a turn that is not its own', async () => {
    const turns = new LocalTurns();
    const holder = turns.enter('s', 1_000) as { leave(): void };
    const next = turns.enter('s', 1_000) as Promise<{ leave(): void } | undefined>;
    const third = turns.enter('s', 1_000) as Promise<{ leave(): void } | undefined>;
    holder.leave();
    holder.leave();
    await next;
    expect(turns.held('s')).toBe(true);
    expect(turns.waiting('s')).toBe(1);
    (await next)!.leave();
    (await third)!.leave();
    expect(turns.held('s')).toBe(false);
  });

  it('keeps streams independent', () => {
    const turns = new LocalTurns();
    expect(turns.enter('a', 10)).not.toBeInstanceOf(Promise);
    expect(turns.enter('b', 10)).not.toBeInstanceOf(Promise);
  });
});
