/** The storage contract, concurrency: optimistic writers racing on one stream, across connections when the backend has them. */
import { describe, expect, it } from 'vitest';
import { exact, event, yieldTurn, isConflict, sequences, revisions, range, type ContractContext } from './support.ts';

export function concurrencyCases({ open, second, options }: ContractContext): void {
  describe('concurrency', () => {
    it(
      '8 optimistic writers x 100 appends on one stream lose nothing and leave no gaps',
      async () => {
        const s = await open();
        const backends = [s];
        const extra = await second();
        if (extra !== undefined) backends.push(extra);
        const WRITERS = 8;
        const PER_WRITER = 100;
        let conflicts = 0;

        async function writer(w: number): Promise<void> {
          const backend = backends[w % backends.length]!;
          for (let n = 0; n < PER_WRITER; n++) {
            for (;;) {
              const revision = await backend.events.streamRevision('counter');
              // Let every other writer read the same revision before this one appends.
              await yieldTurn();
              try {
                await backend.events.append('counter', exact(revision), [event('counter.incremented', { w, n })]);
                break;
              } catch (error) {
                if (!isConflict(error)) throw error;
                conflicts++;
                await yieldTurn();
              }
            }
          }
        }

        await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));

        const total = WRITERS * PER_WRITER;
        expect(conflicts).toBeGreaterThan(0);
        expect(await s.events.streamRevision('counter')).toBe(BigInt(total));
        expect(await s.events.headSequence()).toBe(BigInt(total));
        const all = await s.events.readAll(0n, 1000);
        expect(sequences(all)).toEqual(range(1, total));
        expect(revisions(all)).toEqual(range(1, total));
        const stream = await s.events.readStream('counter', { direction: 'forward', limit: 1000 });
        expect(stream).toEqual(all);
        // Every writer's increments are all there, each once, in that writer's order.
        const byWriter = new Map<number, number[]>();
        for (const e of all) {
          const { w, n } = JSON.parse(e.payload) as { w: number; n: number };
          byWriter.set(w, [...(byWriter.get(w) ?? []), n]);
        }
        for (let w = 0; w < WRITERS; w++) {
          expect(byWriter.get(w)).toEqual(Array.from({ length: PER_WRITER }, (_, n) => n));
        }
      },
      options.concurrencyTimeoutMs ?? 60_000,
    );
  });
}
