/**
 * How one event is stored: a field of the `<prefix>events` hash, keyed by its sequence, whose
 * value is a JSON array of strings:
 *
 *   ["<sequence>","<revision>","<recorded-at ms>","<stream id>","<type>","<payload>","<metadata>"]
 *
 * The append script writes the first three (it assigns them) and splices in the rest, which
 * the host JSON-encodes beforehand (`eventBody`), so Lua never has to escape anything and the
 * texts round-trip exactly (JSON.stringify even escapes lone surrogates). Numbers are strings
 * so they reach JS as bigint without passing through a double.
 */
import { StorageFailure } from '../errors.ts';
import type { NewEvent, RecordedEvent } from '../types.ts';
import { arrayReply, u64Reply } from './values.ts';

/** The host-encoded tail of a record: `"<stream id>","<type>","<payload>","<metadata>"`. */
export function eventBody(streamId: string, event: NewEvent): string {
  return JSON.stringify([streamId, event.eventType, event.payload, event.metadata]).slice(1, -1);
}

export function toRecordedEvent(raw: unknown): RecordedEvent {
  if (typeof raw !== 'string') throw StorageFailure.internal('redis: an indexed event record is missing');
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw StorageFailure.internal('redis: an event record is not valid JSON');
  }
  if (!Array.isArray(parsed) || parsed.length !== 7 || !parsed.every((part) => typeof part === 'string')) {
    throw StorageFailure.internal('redis: an event record has an unexpected shape');
  }
  const [sequence, revision, recordedAt, streamId, eventType, payload, metadata] = parsed as string[] as [string, string, string, string, string, string, string];
  return {
    sequence: u64Reply(sequence, 'sequence'),
    streamId,
    revision: u64Reply(revision, 'revision'),
    eventType,
    payload,
    metadata,
    recordedAt: u64Reply(recordedAt, 'recorded-at'),
  };
}

export function toRecordedEvents(reply: unknown): RecordedEvent[] {
  return arrayReply(reply, 'event list').map(toRecordedEvent);
}
