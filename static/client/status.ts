/**
 * The page status (ready / syncing / live / error) from what is going on: calls in flight, the
 * last call's outcome and the live stream's state.
 */
import type { UiStatus } from '../../src/counter/pages/format.ts';

export type StreamState = 'off' | 'connecting' | 'open' | 'broken';

export class StatusTracker {
  #pending = 0;
  #failed = false;
  #stream: StreamState = 'off';
  readonly #render: (status: UiStatus) => void;

  constructor(render: (status: UiStatus) => void) {
    this.#render = render;
  }

  begin(): void {
    this.#pending++;
    this.#update();
  }

  /** `failed`: the service or network failed (a rejected input is not a broken service). */
  end(failed: boolean): void {
    this.#pending = Math.max(0, this.#pending - 1);
    this.#failed = failed;
    this.#update();
  }

  stream(state: StreamState): void {
    this.#stream = state;
    this.#update();
  }

  get current(): UiStatus {
    if (this.#pending > 0) return 'syncing';
    if (this.#failed) return 'error';
    if (this.#stream === 'open') return 'live';
    if (this.#stream === 'connecting') return 'syncing';
    if (this.#stream === 'broken') return 'error';
    return 'ready';
  }

  #update(): void {
    this.#render(this.current);
  }
}
