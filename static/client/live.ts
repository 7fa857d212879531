/**
 * Live updates over SSE (`/api/counter/stream`). The stream starts after the view the page
 * already shows; on reconnect EventSource sends `Last-Event-ID` by itself, so nothing is missed.
 */
import type { CounterView } from '../../src/counter/application/view.ts';
import type { StreamState } from './status.ts';
import { parseJson, StreamErrorSchema, StreamFrameSchema } from './view-schema.ts';

export interface LiveHandlers {
  view(view: CounterView): void;
  state(state: StreamState): void;
  /** The server reported a failure on the stream (it stays open and retries by itself). */
  failure(message: string): void;
}

/** EventSource retries a dropped connection itself but gives up on a failed (re)connect; then we retry. */
const RECONNECT_AFTER_CLOSE_MS = 3_000;

/** Connects; `lastSequence` is read at every (re)connect so a new stream starts after what is shown. */
export function connectLive(lastSequence: () => number, handlers: LiveHandlers): void {
  const source = new EventSource(`/api/counter/stream?last_sequence=${lastSequence()}`);
  handlers.state('connecting');
  source.addEventListener('open', () => handlers.state('open'));
  source.addEventListener('counter', (event: MessageEvent<string>) => {
    const frame = parseJson(StreamFrameSchema, event.data);
    if (!frame) return;
    handlers.state('open');
    handlers.view(frame.view);
  });
  source.addEventListener('error', (event) => {
    // A server-sent `event: error` frame is a MessageEvent; a lost connection is a plain Event.
    if (event instanceof MessageEvent && typeof event.data === 'string') {
      handlers.state('broken');
      handlers.failure(parseJson(StreamErrorSchema, event.data)?.message ?? 'the live stream reported an error');
      return;
    }
    if (source.readyState !== EventSource.CLOSED) {
      handlers.state('connecting');
      return;
    }
    handlers.state('broken');
    setTimeout(() => connectLive(lastSequence, handlers), RECONNECT_AFTER_CLOSE_MS);
  });
}
