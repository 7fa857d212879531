/** Encoding of auth events for the event store, and decoding of stored ones. */
import { AppError } from '../../errors.ts';
import type { NewEvent, RecordedEvent } from '../../platform/ports.ts';
import type { AuthEventType } from '../domain/events.ts';

export function authEvent(eventType: AuthEventType, payload: object): NewEvent {
  return { eventType, payload: JSON.stringify(payload), metadata: '{}' };
}

/** The payload of a stored auth event; corrupt JSON is an internal error (never shown). */
export function payloadOf<T>(event: RecordedEvent): T {
  try {
    return JSON.parse(event.payload) as T;
  } catch (error) {
    throw new AppError('internal', undefined, { cause: error });
  }
}
