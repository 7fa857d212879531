/**
 * Work a request hands over to run once its response is sent: the client does not wait for it,
 * the instance stays busy with it until it is done (src/http/handler.ts drains the queue after the
 * response's body is finished). An instance handles one exchange at a time (the Node host's pool,
 * `wasmtime serve`), so an instance's queue holds its current exchange's work only. A streaming
 * response (a gRPC stream, say) is sent when it ends: work deferred during it runs then.
 *
 * Tasks are keyed: one queued under a key already waiting is dropped, since the waiting one does
 * the same work (a projection run catches up on every event before it). So a long stream of
 * commands queues one task per key, not one per command: the queue is bounded by its keys.
 */
import type { Logger } from './ports.ts';

/** How a failed task is reported: logged with the code `after_response_failed`, never answered. */
export function logAfterResponseFailure(logger: Logger): (error: unknown) => void {
  return (error) => logger.log('error', 'work after a response failed', { code: 'after_response_failed', error: String(error) });
}
export class AfterResponse {
  readonly #tasks = new Map<string, () => void>();

  /** Queues `task` under `key` until the current exchange's response is sent, unless one with that key waits already. */
  defer(key: string, task: () => void): void {
    if (!this.#tasks.has(key)) this.#tasks.set(key, task);
  }

  /** Runs every queued task (and those they queue) in order; a task that throws is reported and the others still run. */
  drain(onError: (error: unknown) => void): void {
    for (const [key, task] of this.#tasks) {
      this.#tasks.delete(key);
      try {
        task();
      } catch (error) {
        onError(error);
      }
    }
  }

  /** Tasks waiting (tests). */
  get pending(): number {
    return this.#tasks.size;
  }
}
