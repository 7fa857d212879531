/**
 * A counter commit's realtime announcement (src/contract/committed-events.ts: the committed
 * events, newest first, that the platform publishes once a command's append ends its turn), read
 * back as the view it stands for. Anything else on the channel is a mere wake-up.
 */
import * as v from 'valibot';
import type { RecordedEvent } from '../../platform/ports.ts';
import { COUNTER_STREAM_ID } from '../domain/counter.ts';
import { modelOfNewest } from './read-model.ts';
import { LATEST_EVENTS_LIMIT, type CounterView } from './view.ts';

const position = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(Number.MAX_SAFE_INTEGER));
const wireEvent = v.object({
  sequence: position,
  'stream-id': v.literal(COUNTER_STREAM_ID),
  revision: position,
  'event-type': v.string(),
  payload: v.string(),
  metadata: v.string(),
  'recorded-at': v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(Number.MAX_SAFE_INTEGER)),
});
const announcementSchema = v.object({
  'stream-id': v.literal(COUNTER_STREAM_ID),
  events: v.pipe(v.array(wireEvent), v.minLength(1), v.maxLength(1000)),
});

/** Newest first, each one revision below the one before. */
const contiguous = (events: readonly RecordedEvent[]): boolean => events.every((e, i) => i === 0 || e.revision === events[i - 1]!.revision - 1n);

/** The view an announcement of the counter stream stands for; undefined for any other text. */
export function announcedView(text: string, realtimeEnabled: boolean): CounterView | undefined {
  let parsed: v.InferOutput<typeof announcementSchema>;
  try {
    const result = v.safeParse(announcementSchema, JSON.parse(text));
    if (!result.success) return undefined;
    parsed = result.output;
  } catch {
    return undefined;
  }
  const events: RecordedEvent[] = parsed.events.slice(0, LATEST_EVENTS_LIMIT).map((e) => ({
    sequence: BigInt(e.sequence),
    streamId: e['stream-id'],
    revision: BigInt(e.revision),
    eventType: e['event-type'],
    payload: e.payload,
    metadata: e.metadata,
    recordedAt: BigInt(e['recorded-at']),
  }));
  if (!contiguous(events)) return undefined;
  try {
    const model = modelOfNewest(events);
    return { count: model.count, latest_events: model.latest_events, last_sequence: model.last_sequence, realtime_enabled: realtimeEnabled };
  } catch {
    return undefined; // an event that does not decode: re-read the store instead
  }
}
