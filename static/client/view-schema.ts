/** What the client accepts from the network (server functions and the SSE stream), checked with valibot. */
import * as v from 'valibot';
import type { CounterView } from '../../src/counter/application/view.ts';

const EventLogSchema = v.object({
  sequence: v.number(),
  event_type: v.string(),
  revision: v.number(),
  payload: v.string(),
  recorded_at: v.string(),
  user_id: v.optional(v.string()),
});

export const CounterViewSchema = v.object({
  count: v.number(),
  latest_events: v.array(EventLogSchema),
  last_sequence: v.number(),
  realtime_enabled: v.boolean(),
});

/** `data:` of an `event: counter` frame of /api/counter/stream. */
export const StreamFrameSchema = v.object({ view: CounterViewSchema, last_sequence: v.number() });

/** `data:` of an `event: error` frame. */
export const StreamErrorSchema = v.object({ message: v.string() });

/** The server-function error (the project's error envelope). */
export const ErrorEnvelopeSchema = v.object({ error: v.object({ code: v.string(), message: v.string() }) });

/** JSON text → CounterView, or undefined when it is not one. */
export function parseJson<S extends v.GenericSchema>(schema: S, text: string): v.InferOutput<S> | undefined {
  try {
    const result = v.safeParse(schema, JSON.parse(text));
    return result.success ? result.output : undefined;
  } catch {
    return undefined;
  }
}

// Compile-time check that the schema describes the server's CounterView.
const _sameShape: (view: v.InferOutput<typeof CounterViewSchema>) => CounterView = (view) => view;
void _sameShape;
