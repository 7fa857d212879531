/**
 * Work a request hands over to run once its response is sent: the client does not wait for it,
 * the instance stays busy with it until it is done (src/http/handler.ts drains the queue after the
 * response's body is finished). An instance handles one exchange at a time (the Node host's pool,
 * `wasmtime serve`), so an instance's queue holds its current exchange's work only. A streaming
 * response (a gRPC stream, say) is sent when it ends: work deferred during it runs then.
 */
export class AfterResponse {
  #tasks: Array<() => void> = [];

  /** Queues `task` until the current exchange's response is sent. */
  defer(task: () => void): void {
    this.#tasks.push(task);
  }

  /** Runs every queued task (and those they queue) in order; a task that throws is reported and the others still run. */
  drain(onError: (error: unknown) => void): void {
    for (let task = this.#tasks.shift(); task !== undefined; task = this.#tasks.shift()) {
      try {
        task();
      } catch (error) {
        onError(error);
      }
    }
  }

  /** Tasks waiting (tests). */
  get pending(): number {
    return this.#tasks.length;
  }
}
