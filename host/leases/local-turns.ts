/**
 * In-process FIFO turns per stream: the guest instances of one host (one thread) queue here
 * for a stream instead of racing each other through the store. Costs no store round trip;
 * only the head of each queue goes on to the store's lease (host/app-platform/lease-imports.ts).
 */

/** One granted turn; `leave` is idempotent and hands the turn to the next waiter. */
export interface Turn {
  leave(): void;
}

interface Line {
  held: boolean;
  waiters: Array<(turn: Turn) => void>;
}

export class LocalTurns {
  readonly #lines = new Map<string, Line>();

  /** The turn on `key`, in arrival order; undefined when it did not come within `waitMs`. */
  enter(key: string, waitMs: number): Turn | Promise<Turn | undefined> {
    let line = this.#lines.get(key);
    if (line === undefined) {
      line = { held: false, waiters: [] };
      this.#lines.set(key, line);
    }
    if (!line.held) {
      line.held = true;
      return this.#turn(key, line);
    }
    const waiting = line;
    return new Promise((resolve) => {
      const grant = (turn: Turn): void => {
        clearTimeout(timer);
        resolve(turn);
      };
      const timer = setTimeout(() => {
        const index = waiting.waiters.indexOf(grant);
        if (index >= 0) waiting.waiters.splice(index, 1);
        resolve(undefined);
      }, waitMs);
      waiting.waiters.push(grant);
    });
  }

  /** Writers waiting behind the holder of `key`. */
  waiting(key: string): number {
    return this.#lines.get(key)?.waiters.length ?? 0;
  }

  /** Whether someone holds the turn on `key`. */
  held(key: string): boolean {
    return this.#lines.get(key)?.held ?? false;
  }

  #turn(key: string, line: Line): Turn {
    let left = false;
    return {
      leave: () => {
        if (left) return;
        left = true;
        const next = line.waiters.shift();
        if (next !== undefined) return next(this.#turn(key, line));
        line.held = false;
        this.#lines.delete(key);
      },
    };
  }
}
