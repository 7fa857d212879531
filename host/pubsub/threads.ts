/**
 * Fan-out across the worker threads of one host process (--workers with --realtime local):
 * a message published in any thread reaches the listeners of every thread. Listeners in the
 * publishing thread are called at once; other threads get it through a BroadcastChannel.
 */
import { BroadcastChannel } from 'node:worker_threads';
import { localPubSub } from './local.ts';
import type { PubSubBackend } from './types.ts';

interface Envelope {
  channel: string;
  message: string;
}

const isEnvelope = (data: unknown): data is Envelope =>
  typeof data === 'object' && data !== null && typeof (data as Envelope).channel === 'string' && typeof (data as Envelope).message === 'string';

/** `name` must be the same in every thread of one host and unique to it (two hosts in one process stay apart). */
export function threadPubSub(name: string): PubSubBackend {
  const local = localPubSub();
  const broadcast = new BroadcastChannel(name);
  broadcast.onmessage = (event: unknown) => {
    const data = (event as { data?: unknown }).data;
    if (isEnvelope(data)) void local.publish(data.channel, data.message);
  };
  // An idle channel must not keep a stopping thread alive.
  broadcast.unref();
  return {
    name: 'local',
    publish(channel, message) {
      void local.publish(channel, message);
      broadcast.postMessage({ channel, message } satisfies Envelope);
    },
    listen: (channel, onMessage, onInterrupted) => local.listen(channel, onMessage, onInterrupted),
    close() {
      broadcast.close();
      void local.close();
    },
  };
}
