/** The CounterView and EventLog shapes returned by every surface, and how they are read. */
import type { RecordedEvent } from '../../platform/ports.ts';

export interface EventLog {
  sequence: number;
  event_type: string;
  revision: number;
  /** the stored payload, as JSON text */
  payload: string;
  /** RFC 3339, UTC */
  recorded_at: string;
}

export interface CounterView {
  count: number;
  /** newest first, at most LATEST_EVENTS_LIMIT */
  latest_events: EventLog[];
  last_sequence: number;
  realtime_enabled: boolean;
}

/** What is published on the realtime channel after each command. */
export interface RealtimeMessage {
  view: CounterView;
  last_sequence: number;
}

export const LATEST_EVENTS_LIMIT = 5;

export function toEventLog(event: RecordedEvent): EventLog {
  return {
    sequence: Number(event.sequence),
    event_type: event.eventType,
    revision: Number(event.revision),
    payload: event.payload,
    recorded_at: new Date(Number(event.recordedAt)).toISOString(),
  };
}

export function encodeRealtimeMessage(view: CounterView): string {
  const message: RealtimeMessage = { view, last_sequence: view.last_sequence };
  return JSON.stringify(message);
}
