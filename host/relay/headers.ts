/**
 * The relay protocol between the guest and the host, as headers. The host knows nothing of what a
 * stream carries (SSE frames or gRPC messages): only where to listen, how, and the opaque
 * position its clients are at.
 *
 *   response  x-app-relay: channel=<name, URI-encoded>; mode=pubsub|polling|off; interval=<ms>; after=<position>
 *   request   x-app-relay-poll: <position>     (host → guest only)
 *
 * The contract the host relies on: a poll answer at a position is the stream's whole state at
 * the `after` it reports, the same for any client behind `after`, and it supersedes every older
 * frame. So one poll (at the oldest position) serves every client of a stream, and a client that
 * cannot keep up needs only the newest answer. The guest clamps a start position beyond its
 * store's head to the head, so the host never holds a client at a position the store lacks.
 */
import * as v from 'valibot';
import { MAINTENANCE_HEADER, RELAY_POLL_HEADER } from '../../src/contract/headers.ts';

/** Request headers only the host may send to the guest: dropped from every client request. */
export const HOST_ONLY_REQUEST_HEADERS: ReadonlySet<string> = new Set([RELAY_POLL_HEADER, MAINTENANCE_HEADER]);

const count = v.pipe(v.string(), v.regex(/^\d{1,16}$/), v.transform(Number), v.safeInteger());
const schema = v.object({
  channel: v.pipe(v.string(), v.minLength(1), v.maxLength(256)),
  mode: v.picklist(['pubsub', 'polling', 'off']),
  interval: v.optional(v.pipe(count, v.minValue(10)), '500'),
  after: count,
});

export interface RelayInstruction {
  channel: string;
  mode: 'pubsub' | 'polling' | 'off';
  intervalMs: number;
  /** The position the stream's client is at after what the guest sent. */
  after: number;
}

/** Parses the guest's relay header; undefined when it is malformed. */
export function parseInstruction(value: string): RelayInstruction | undefined {
  const fields: Record<string, string> = {};
  for (const part of value.split(';')) {
    const at = part.indexOf('=');
    if (at <= 0) return undefined;
    fields[part.slice(0, at).trim()] = part.slice(at + 1).trim();
  }
  const parsed = v.safeParse(schema, fields);
  if (!parsed.success) return undefined;
  const { channel, mode, interval, after } = parsed.output;
  try {
    return { channel: decodeURIComponent(channel), mode, intervalMs: interval, after };
  } catch {
    return undefined;
  }
}
