/**
 * The realtime announcement of a commit (WIT `stream-lease.lease.append-and-end`'s `announce`):
 * the events the append answered with, as JSON text. Dependency-free: the Node host writes it, and
 * the component where no host does (its test platforms); the component checks what it reads
 * against its schema (src/counter/application/view.ts). Numbers are JSON numbers: sequences,
 * revisions and times stay far below 2^53.
 */
import type { RecordedEvent } from './wit/interfaces/app-platform-event-store.js';

/** One event of an announcement: the fields of WIT `recorded-event` in kebab case. */
export interface WireEvent {
  sequence: number;
  'stream-id': string;
  revision: number;
  'event-type': string;
  payload: string;
  metadata: string;
  'recorded-at': number;
}

/** An announcement: the stream and its committed events, newest first. */
export interface CommittedEventsWire {
  'stream-id': string;
  events: WireEvent[];
}

/** `events` newest first, as the append answered. */
export function encodeCommittedEvents(streamId: string, events: readonly RecordedEvent[]): string {
  const wire: WireEvent[] = events.map((e) => ({
    sequence: Number(e.sequence),
    'stream-id': e.streamId,
    revision: Number(e.revision),
    'event-type': e.eventType,
    payload: e.payload,
    metadata: e.metadata,
    'recorded-at': Number(e.recordedAt),
  }));
  const announcement: CommittedEventsWire = { 'stream-id': streamId, events: wire };
  return JSON.stringify(announcement);
}
