/**
 * Failure injection for the in-memory platform. Each fake method calls `enter(op)` first; queued
 * faults for that op run once, in order (a thrown error, or an action such as a concurrent write).
 */
import { StoreError } from '../../errors.ts';
import type { EventStore, KeyValue, ProjectionStore, PubSub } from '../ports.ts';

/** A fake's method name; unique across the ports. `next` is Subscription.next. */
export type FaultOp = keyof EventStore | keyof ProjectionStore | keyof KeyValue | keyof PubSub | 'next';

type Fault = () => void;

export class Faults {
  readonly #queued = new Map<FaultOp, Fault[]>();
  readonly #always = new Map<FaultOp, Error>();
  readonly #calls = new Map<FaultOp, number>();

  /** The next `times` calls of `op` throw `error` (default: StoreError 'unavailable'). */
  failNext(op: FaultOp, error: Error = injected(op), times = 1): this {
    for (let i = 0; i < times; i++) {
      this.#queue(op, () => {
        throw error;
      });
    }
    return this;
  }

  /** Every call of `op` throws until `clear()`. */
  failAlways(op: FaultOp, error: Error = injected(op)): this {
    this.#always.set(op, error);
    return this;
  }

  /**
   * Runs `action` just before the next call of `op` proceeds, e.g. a competing append that makes
   * an optimistic-concurrency check fail for real. The action may call the same op itself.
   */
  beforeNext(op: FaultOp, action: () => void): this {
    this.#queue(op, action);
    return this;
  }

  clear(): void {
    this.#queued.clear();
    this.#always.clear();
  }

  /** How many times `op` was called (including calls that failed). */
  calls(op: FaultOp): number {
    return this.#calls.get(op) ?? 0;
  }

  /** Called by the fakes at the start of every method. */
  enter(op: FaultOp): void {
    this.#calls.set(op, this.calls(op) + 1);
    const always = this.#always.get(op);
    if (always) throw always;
    const fault = this.#queued.get(op)?.shift();
    if (fault) fault();
  }

  #queue(op: FaultOp, fault: Fault): void {
    const list = this.#queued.get(op) ?? [];
    list.push(fault);
    this.#queued.set(op, list);
  }
}

function injected(op: FaultOp): StoreError {
  return new StoreError('unavailable', `injected failure in ${op}`);
}
