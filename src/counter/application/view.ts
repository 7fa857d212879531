/** The CounterView and EventLog shapes returned by every surface, and how they are read. */
import * as v from 'valibot';
import type { RecordedEvent } from '../../platform/ports.ts';
import { COUNTER_EVENT_TYPES } from '../domain/counter.ts';
import { userIdOf } from './event-codec.ts';

export interface EventLog {
  sequence: number;
  event_type: string;
  revision: number;
  /** the stored payload, as JSON text */
  payload: string;
  /** RFC 3339, UTC */
  recorded_at: string;
  /** who sent the command: the user id of the session it came with; absent when it came without one */
  user_id?: string;
}

export interface CounterView {
  count: number;
  /** newest first, at most LATEST_EVENTS_LIMIT */
  latest_events: EventLog[];
  last_sequence: number;
  realtime_enabled: boolean;
}

export const LATEST_EVENTS_LIMIT = 5;

export function toEventLog(event: RecordedEvent): EventLog {
  const log: EventLog = {
    sequence: Number(event.sequence),
    event_type: event.eventType,
    revision: Number(event.revision),
    payload: event.payload,
    recorded_at: new Date(Number(event.recordedAt)).toISOString(),
  };
  const userId = userIdOf(event);
  if (userId !== undefined) log.user_id = userId;
  return log;
}

/** EventLog on the wire: what realtime messages are checked against and the OpenAPI document describes. */
export const eventLogSchema = v.object({
  sequence: v.pipe(v.number(), v.integer(), v.minValue(1)),
  event_type: v.picklist(COUNTER_EVENT_TYPES),
  revision: v.pipe(v.number(), v.integer(), v.minValue(1)),
  payload: v.pipe(v.string(), v.description('the stored event payload, as JSON text')),
  recorded_at: v.pipe(v.string(), v.isoTimestamp(), v.description('RFC 3339, UTC')),
  user_id: v.optional(v.pipe(v.string(), v.description('who sent the command: the user id of the session it came with (never an email); absent when it came without one'))),
});
/** CounterView on the wire (same use). */
export const counterViewSchema = v.object({
  count: v.pipe(v.number(), v.integer(), v.minValue(-2147483648), v.maxValue(2147483647)),
  latest_events: v.pipe(v.array(eventLogSchema), v.maxLength(LATEST_EVENTS_LIMIT), v.description('the newest events, newest first')),
  last_sequence: v.pipe(v.number(), v.integer(), v.minValue(0)),
  realtime_enabled: v.boolean(),
});
