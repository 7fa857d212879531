/**
 * Exchanges whose client left (an HTTP/2 stream reset, a connection closed) before the guest ran
 * them, by where the host noticed; none of them ran in the guest (host_exchanges_departed_total).
 * The rapid-reset attack (host/admission/reset-rate.ts) shows here first: every stream it opens
 * departs before its start.
 */

/**
 * `before_start`: before its turn on its connection (after-read.ts, admission/pipeline.ts);
 * `waiting`: while it waited for its client's fair share or a guest instance; `before_run`: as an
 * instance was ready for it.
 */
export type DepartureStage = 'before_start' | 'waiting' | 'before_run';

export class Departures {
  readonly #counts: Record<DepartureStage, number> = { before_start: 0, waiting: 0, before_run: 0 };

  note(stage: DepartureStage): void {
    this.#counts[stage]++;
  }

  get counts(): Record<DepartureStage, number> {
    return { ...this.#counts };
  }
}
