/**
 * `GET /api/counter/stream`: server-sent events of the counter's state. The watching itself
 * (catch-up, pub/sub wake + re-read, polling fallback) is the application's CounterWatch, shared
 * with gRPC WatchCounter; this file only frames it as SSE with keepalives.
 *
 * This guest-held producer serves `wasmtime serve` and `--stream-relay off`; on the Node host the
 * host holds the streams and asks the guest for frames instead (stream-relay.ts).
 */
import { Hono } from 'hono';
import * as v from 'valibot';
import { AppError } from '../errors.ts';
import type { CounterDeps } from './application/deps.ts';
import { CHECK_CLIENT, CounterWatch } from './application/watch-counter.ts';
import { counterViewSchema, type CounterView } from './application/view.ts';
import { errorResponse, readOnlyRoute } from '../http/errors.ts';
import { parseStartPosition, UNSIGNED } from './stream-position.ts';
import type { ApiContract } from '../http/operation.ts';
import { COUNTER_SCHEMAS, READ_ERRORS, SAMPLE_VIEW } from './command-operations.ts';
import { answerRelayPoll, openRelayedStream } from './stream-relay.ts';

export const STREAM_PATH = '/api/counter/stream';
/** A comment line after this much silence keeps proxies from closing an idle stream. */
export const KEEPALIVE_MS = 15_000;
const RETRY_HINT_MS = 1_000;
const encoder = new TextEncoder();

export function dataFrame(view: CounterView): string {
  return `id: ${view.last_sequence}\nevent: counter\ndata: ${JSON.stringify({ view, last_sequence: view.last_sequence })}\n\n`;
}

export function errorFrame(message: string): string {
  return `event: error\ndata: ${JSON.stringify({ message })}\n\n`;
}

/** The producer behind one SSE response; each `next()` yields the next text to send. */
class CounterStream {
  readonly #watch: CounterWatch;
  readonly #now: () => number;
  #greeted = false;
  #closed = false;
  #lastWrite = 0;

  constructor(deps: CounterDeps, start: number) {
    this.#watch = new CounterWatch(deps, start);
    this.#now = () => deps.platform.now();
  }

  async next(): Promise<string> {
    if (!this.#greeted) {
      this.#greeted = true;
      this.#lastWrite = this.#now();
      // The catch-up frame (anything newer than the start position, or the head's state for a start beyond it) follows at once.
      return `retry: ${RETRY_HINT_MS}\n\n${frameFor(this.#watch.catchUp())}`;
    }
    for (;;) {
      if (this.#closed) return '';
      const silentFor = this.#now() - this.#lastWrite;
      if (silentFor >= KEEPALIVE_MS) {
        this.#lastWrite = this.#now();
        return ': keepalive\n\n';
      }
      const result = await this.#watch.next(KEEPALIVE_MS - silentFor);
      if (result === CHECK_CLIENT) {
        // A write is the only way to learn the client left; it then fails and the stream ends.
        this.#lastWrite = this.#now();
        return ': keepalive\n\n';
      }
      const frame = frameFor(result);
      if (frame) {
        this.#lastWrite = this.#now();
        return frame;
      }
    }
  }

  close(): void {
    this.#closed = true;
    this.#watch.close();
  }
}

const POSITION = v.pipe(v.string(), v.regex(UNSIGNED));

/** The operation of this route, with the JSON of its two kinds of frame. */
export const COUNTER_STREAM_CONTRACT: ApiContract = {
  schemas: {
    ...COUNTER_SCHEMAS,
    /** The JSON in an `event: counter` frame (dataFrame). */
    CounterFrame: v.object({
      view: counterViewSchema,
      last_sequence: v.pipe(v.number(), v.integer(), v.minValue(0), v.description('the same as view.last_sequence and the frame id')),
    }),
    /** The JSON in an `event: error` frame: storage failed, the stream stays open. */
    StreamError: v.object({ message: v.pipe(v.string(), v.description('public text; never internal detail')) }),
  },
  operations: [
    {
      method: 'get',
      path: STREAM_PATH,
      operationId: 'streamCounter',
      tag: 'counter',
      summary: 'Watch the counter (server-sent events)',
      description: 'Starts at `Last-Event-ID`, else `?last_sequence=`, else 0; see the response for the frames.',
      parameters: [
        { name: 'Last-Event-ID', in: 'header', description: 'resume after this sequence (sent by EventSource on reconnect)', schema: POSITION },
        { name: 'last_sequence', in: 'query', description: 'start after this sequence when there is no Last-Event-ID', schema: POSITION },
      ],
      success: {
        '200': {
          kind: 'sse',
          description: [
            'an endless event stream (text/event-stream, https://html.spec.whatwg.org/multipage/server-sent-events.html).',
            `First \`retry: ${RETRY_HINT_MS}\`; then one catch-up frame if anything is newer than the start position.`,
            'A data frame is `id: <last_sequence>`, `event: counter`, `data: {"view": CounterView, "last_sequence": n}` and stands for the whole new state (several events coalesce).',
            `\`: keepalive\` after ${KEEPALIVE_MS / 1000} s of silence; a storage failure sends \`event: error\` with \`{"message": …}\` and keeps the stream open.`,
          ].join(' '),
          events: { counter: 'CounterFrame', error: 'StreamError' },
          id: { pattern: UNSIGNED.source, description: 'the last_sequence of the newest counter frame' },
          example: `retry: ${RETRY_HINT_MS}\n\n${dataFrame(SAMPLE_VIEW)}: keepalive\n\n`,
        },
      },
      errors: ['validation', ...READ_ERRORS],
    },
  ],
};

/** A data frame for a new state, an error frame for a storage failure (the stream stays open). */
function frameFor(result: CounterView | AppError | undefined): string {
  if (result === undefined) return '';
  return result instanceof AppError ? errorFrame(result.message) : dataFrame(result);
}

export interface StreamOptions {
  /** The host holds the connections and polls for frames (stream-relay.ts); else the guest streams. */
  relay?: boolean;
}

export function counterStreamRoutes(deps: CounterDeps, options: StreamOptions = {}): Hono {
  const app = new Hono();
  const frames = { dataFrame, errorFrame };
  app.all(
    STREAM_PATH,
    readOnlyRoute((c) => {
      const poll = options.relay ? answerRelayPoll(c, deps, frames) : undefined;
      if (poll) return poll;
      const start = parseStartPosition(c.req.header('last-event-id'), c.req.query('last_sequence'));
      if (start instanceof AppError) return errorResponse(c, start, deps.platform.logger);
      if (options.relay) return openRelayedStream(deps, start, `retry: ${RETRY_HINT_MS}\n\n`, frames);
      const producer = new CounterStream(deps, start);
      const body = new ReadableStream<Uint8Array>(
        {
          async pull(controller) {
            const text = await producer.next();
            if (text) controller.enqueue(encoder.encode(text));
          },
          cancel() {
            producer.close();
          },
          // highWaterMark 0: produce only when the writer asks, so a frame is sent before the
          // producer's next (blocking) wait rather than after it.
        },
        { highWaterMark: 0 },
      );
      return new Response(body, {
        status: 200,
        headers: {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-cache, no-transform',
          'x-accel-buffering': 'no',
        },
      });
    }, deps.platform.logger),
  );
  return app;
}
