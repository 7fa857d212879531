/**
 * Maps domain events to stored events and back, one codec per event type. Stored payloads are
 * JSON texts: `incremented`/`decremented` → {"amount":n,"value":v} (`value`: the count the event
 * left), `reset_performed` → {"previous":n}. The metadata carries the payload's schema version
 * (an older version is upcast by its type's shape, src/platform/schema-version.ts) and, for a
 * command sent with a session, `user_id`: who sent it (never the email).
 *
 * The codec table is keyed by every event type (a mapped type): an event type added to the
 * domain without its codec fails the type check, not a decode at run time.
 */
import { AppError } from '../../errors.ts';
import type { NewEvent } from '../../platform/ports.ts';
import { eventMetadata, firstShape, readEventPayload, type JsonObject, type StoredShape } from '../../platform/schema-version.ts';
import type { CounterEvent, CounterEventType } from '../domain/counter.ts';
import type { Actor } from './deps.ts';
import { isInt32 } from '../domain/int32.ts';

type EventOf<T extends CounterEventType> = Extract<CounterEvent, { type: T }>;

interface EventCodec<T extends CounterEventType> {
  /** The stored shape: the version written now and the steps from older ones. */
  shape: StoredShape;
  encode(event: EventOf<T>): JsonObject;
  /** The event from its payload in the current shape; throws AppError('internal') on anything malformed. */
  decode(body: JsonObject): EventOf<T>;
}

const CODECS: { readonly [T in CounterEventType]: EventCodec<T> } = {
  incremented: {
    shape: firstShape('counter event incremented'),
    encode: ({ amount, value }) => ({ amount, value }),
    decode: (body) => ({ type: 'incremented', amount: int32Field(body, 'amount', 'incremented'), value: int32Field(body, 'value', 'incremented') }),
  },
  decremented: {
    shape: firstShape('counter event decremented'),
    encode: ({ amount, value }) => ({ amount, value }),
    decode: (body) => ({ type: 'decremented', amount: int32Field(body, 'amount', 'decremented'), value: int32Field(body, 'value', 'decremented') }),
  },
  reset_performed: {
    shape: firstShape('counter event reset_performed'),
    encode: ({ previous }) => ({ previous }),
    decode: (body) => ({ type: 'reset_performed', previous: int32Field(body, 'previous', 'reset_performed') }),
  },
};

/** The codec of `type`, typed by it (the lookup TypeScript cannot narrow from a union key by itself). */
function codecOf<T extends CounterEventType>(type: T): EventCodec<T> {
  return CODECS[type] as unknown as EventCodec<T>;
}

export function encodeEvent(event: CounterEvent, actor?: Actor): NewEvent {
  const recorded = actor === undefined ? {} : { [USER_ID_FIELD]: actor.userId };
  return { eventType: event.type, payload: JSON.stringify(payloadOf(event)), metadata: eventMetadata(codecOf(event.type).shape, recorded) };
}

/** The metadata field naming who sent the command. */
const USER_ID_FIELD = 'user_id';

/**
 * Who sent the command that recorded a stored event, if it came with a session. Metadata without
 * the field (most events: anyone may write by default) is not parsed at all.
 */
export function userIdOf(stored: { metadata: string }): string | undefined {
  if (!stored.metadata.includes(`"${USER_ID_FIELD}"`)) return undefined;
  try {
    const value: unknown = (JSON.parse(stored.metadata) as Record<string, unknown>)[USER_ID_FIELD];
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

function payloadOf<T extends CounterEventType>(event: EventOf<T>): JsonObject {
  return codecOf<T>(event.type).encode(event);
}

/** Decodes a stored counter event; anything unexpected is corruption, hence `internal`. */
export function decodeEvent(stored: { eventType: string; payload: string; metadata: string }): CounterEvent {
  const type = stored.eventType;
  if (!Object.hasOwn(CODECS, type)) throw corrupt(`unknown counter event type ${JSON.stringify(type)}`);
  const codec = codecOf(type as CounterEventType);
  return codec.decode(readEventPayload(codec.shape, stored));
}

function int32Field(body: JsonObject, field: string, eventType: string): number {
  const value = body[field];
  if (typeof value !== 'number' || !isInt32(value)) throw corrupt(`${eventType} payload has no valid ${field}`);
  return value;
}

function corrupt(detail: string): AppError {
  return new AppError('internal', undefined, { cause: new Error(detail) });
}
