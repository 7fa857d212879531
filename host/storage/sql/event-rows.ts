/** The app_events columns every event read selects, and their mapping to RecordedEvent. */
import type { RecordedEvent } from '../types.ts';
import { int, text, type Row } from './values.ts';

export const EVENT_COLUMNS = 'sequence, stream_id, revision, event_type, payload, metadata, recorded_at';

export function toRecordedEvent(row: Row): RecordedEvent {
  return {
    sequence: int(row, 'sequence'),
    streamId: text(row, 'stream_id'),
    revision: int(row, 'revision'),
    eventType: text(row, 'event_type'),
    payload: text(row, 'payload'),
    metadata: text(row, 'metadata'),
    recordedAt: int(row, 'recorded_at'),
  };
}
