/** In-process fan-out: every guest instance of this host process sees every message. */
import type { PubSubBackend } from './types.ts';

export function localPubSub(): PubSubBackend {
  const listeners = new Map<string, Set<(message: string) => void>>();
  return {
    name: 'local',
    publish(channel, message) {
      for (const listener of listeners.get(channel) ?? []) listener(message);
    },
    listen(channel, onMessage) {
      let set = listeners.get(channel);
      if (!set) listeners.set(channel, (set = new Set()));
      set.add(onMessage);
      return () => {
        set.delete(onMessage);
        if (set.size === 0) listeners.delete(channel);
      };
    },
    close() {
      listeners.clear();
    },
  };
}
