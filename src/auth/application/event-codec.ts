/**
 * Encoding of auth events for the event store, and decoding of stored ones. The metadata carries
 * the payload's schema version; an older version is upcast by its type's shape in `SHAPES`, the
 * one place a change of an auth event's payload is handled (src/platform/schema-version.ts).
 */
import type { NewEvent, RecordedEvent } from '../../platform/ports.ts';
import { eventMetadata, firstShape, readEventPayload, type StoredShape } from '../../platform/schema-version.ts';
import { AUTH_EVENT_TYPES, type AuthEventType } from '../domain/events.ts';

const SHAPES = new Map<string, StoredShape>(AUTH_EVENT_TYPES.map((type) => [type, firstShape(`auth event ${type}`)]));

function shapeOf(eventType: string): StoredShape {
  return SHAPES.get(eventType) ?? firstShape(`auth event ${eventType}`);
}

export function authEvent(eventType: AuthEventType, payload: object): NewEvent {
  return { eventType, payload: JSON.stringify(payload), metadata: eventMetadata(shapeOf(eventType)) };
}

/** The payload of a stored auth event in its current shape; a malformed one is an internal error (never shown). */
export function payloadOf<T>(event: RecordedEvent): T {
  return readEventPayload(shapeOf(event.eventType), event) as T;
}
