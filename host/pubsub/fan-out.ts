/** The in-memory fan-out behind one broker connection: listeners per server channel name. */

export interface Listener {
  readonly onMessage: (message: string) => void;
  readonly onInterrupted: (() => void) | undefined;
}

export type Listeners = Map<string, Set<Listener>>;

/** Calls every listener of `name`; a listener's exception goes to `onError`, never to the others. */
export function deliver(listeners: Listeners, name: string, message: string, onError: (error: unknown) => void): void {
  // A copy: a listener may unsubscribe (itself or another) while being called.
  for (const listener of [...(listeners.get(name) ?? [])]) {
    try {
      listener.onMessage(message);
    } catch (error) {
      onError(error);
    }
  }
}

/** Tells every listener that messages may have been lost while the connection was down. */
export function interruptAll(listeners: Listeners, onError: (error: unknown) => void): void {
  for (const set of listeners.values()) {
    for (const listener of [...set]) {
      try {
        listener.onInterrupted?.();
      } catch (error) {
        onError(error);
      }
    }
  }
}
