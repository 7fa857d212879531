/**
 * Maps domain events to stored events and back. Stored payloads are JSON texts:
 * `incremented`/`decremented` → {"amount":n,"value":v} (`value`: the count the event left),
 * `reset_performed` → {"previous":n}.
 */
import { AppError } from '../../errors.ts';
import type { NewEvent } from '../../platform/ports.ts';
import type { CounterEvent } from '../domain/counter.ts';
import { isInt32 } from '../domain/int32.ts';

/** Commands carry no caller metadata yet; `{}` keeps the column valid JSON. */
const DEFAULT_METADATA = '{}';

export function encodeEvent(event: CounterEvent): NewEvent {
  const payload = event.type === 'reset_performed' ? { previous: event.previous } : { amount: event.amount, value: event.value };
  return { eventType: event.type, payload: JSON.stringify(payload), metadata: DEFAULT_METADATA };
}

/** Decodes a stored counter event; anything unexpected is corruption, hence `internal`. */
export function decodeEvent(stored: { eventType: string; payload: string }): CounterEvent {
  const body = parseObject(stored.payload);
  switch (stored.eventType) {
    case 'incremented':
    case 'decremented': {
      return { type: stored.eventType, amount: int32Field(body, 'amount', stored.eventType), value: int32Field(body, 'value', stored.eventType) };
    }
    case 'reset_performed':
      return { type: 'reset_performed', previous: int32Field(body, 'previous', stored.eventType) };
    default:
      throw corrupt(`unknown counter event type ${JSON.stringify(stored.eventType)}`);
  }
}

function parseObject(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw corrupt('counter event payload is not JSON', error);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw corrupt('counter event payload is not an object');
  return value as Record<string, unknown>;
}

function int32Field(body: Record<string, unknown>, field: string, eventType: string): number {
  const value = body[field];
  if (typeof value !== 'number' || !isInt32(value)) throw corrupt(`${eventType} payload has no valid ${field}`);
  return value;
}

function corrupt(detail: string, cause?: unknown): AppError {
  return new AppError('internal', undefined, { cause: cause ?? new Error(detail) });
}
