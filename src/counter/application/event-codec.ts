/**
 * Maps domain events to stored events and back. Stored payloads are JSON texts:
 * `incremented`/`decremented` → {"amount":n,"value":v} (`value`: the count the event left),
 * `reset_performed` → {"previous":n}; the metadata carries the payload's schema version, and an
 * older version is upcast by its type's shape (src/platform/schema-version.ts) before decoding.
 */
import { AppError } from '../../errors.ts';
import type { NewEvent } from '../../platform/ports.ts';
import { eventMetadata, firstShape, readEventPayload, type JsonObject, type StoredShape } from '../../platform/schema-version.ts';
import type { CounterEvent } from '../domain/counter.ts';
import { isInt32 } from '../domain/int32.ts';

/** Each counter event type's stored shape: the version written now and the steps from older ones. */
const SHAPES: Readonly<Record<CounterEvent['type'], StoredShape>> = {
  incremented: firstShape('counter event incremented'),
  decremented: firstShape('counter event decremented'),
  reset_performed: firstShape('counter event reset_performed'),
};

export function encodeEvent(event: CounterEvent): NewEvent {
  const payload = event.type === 'reset_performed' ? { previous: event.previous } : { amount: event.amount, value: event.value };
  return { eventType: event.type, payload: JSON.stringify(payload), metadata: eventMetadata(SHAPES[event.type]) };
}

/** Decodes a stored counter event; anything unexpected is corruption, hence `internal`. */
export function decodeEvent(stored: { eventType: string; payload: string; metadata: string }): CounterEvent {
  const type = stored.eventType;
  if (!Object.hasOwn(SHAPES, type)) throw corrupt(`unknown counter event type ${JSON.stringify(type)}`);
  const body = readEventPayload(SHAPES[type as CounterEvent['type']], stored);
  switch (type) {
    case 'incremented':
    case 'decremented':
      return { type, amount: int32Field(body, 'amount', type), value: int32Field(body, 'value', type) };
    default:
      return { type: 'reset_performed', previous: int32Field(body, 'previous', type) };
  }
}

function int32Field(body: JsonObject, field: string, eventType: string): number {
  const value = body[field];
  if (typeof value !== 'number' || !isInt32(value)) throw corrupt(`${eventType} payload has no valid ${field}`);
  return value;
}

function corrupt(detail: string): AppError {
  return new AppError('internal', undefined, { cause: new Error(detail) });
}
