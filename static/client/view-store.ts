/**
 * The newest CounterView the page knows. Views arrive from clicks and from the stream in any
 * order; one is shown only if its last_sequence is newer, so the page never goes back in time.
 */
import type { CounterView } from '../../src/counter/application/view.ts';

export class ViewStore {
  #current: CounterView;
  readonly #listeners: Array<(view: CounterView) => void> = [];

  constructor(initial: CounterView) {
    this.#current = initial;
  }

  get current(): CounterView {
    return this.#current;
  }

  onChange(listener: (view: CounterView) => void): void {
    this.#listeners.push(listener);
  }

  /** Takes `view` if it is newer than the current one; returns whether it did. */
  offer(view: CounterView): boolean {
    if (view.last_sequence <= this.#current.last_sequence) return false;
    this.#current = view;
    for (const listener of this.#listeners) listener(view);
    return true;
  }
}
