/**
 * How a guest response asks the host in front of it to cache it (host/response-cache/):
 *
 *   Surrogate-Control: max-age=<s>   W3C Edge Architecture 1.0: for surrogates only; the host
 *                                    strips it, so `Cache-Control` still speaks to the client
 *   x-app-cache-deps: <stream>@<revision>.<sequence>.<recorded-at>, ...
 *                                    the event-store streams the body was built from, each at the
 *                                    newest event that was read; the host serves the stored body
 *                                    again only while every stream is still at that event
 *
 * A host without a cache passes both on unread (wasmtime serve): they say nothing to a client.
 */
import { CACHE_DEPS_HEADER } from '../contract/headers.ts';

/** The newest event of a stream a response was built from (0, 0, 0: the stream had none). */
export interface StreamSource {
  streamId: string;
  revision: bigint;
  sequence: bigint;
  recordedAt: bigint;
}

/** Lifetime of a validated entry: long, since every hit is checked against the store anyway. */
const VALIDATED_MAX_AGE_S = 86_400;
/** Lifetime of an immutable one (a content-hashed file). */
const IMMUTABLE_MAX_AGE_S = 31_536_000;

/** The headers that let the host cache a response built from `sources`. */
export function validatedSurrogateHeaders(sources: readonly StreamSource[]): Record<string, string> {
  return {
    'Surrogate-Control': `max-age=${VALIDATED_MAX_AGE_S}`,
    [CACHE_DEPS_HEADER]: sources.map((s) => `${encodeURIComponent(s.streamId)}@${s.revision}.${s.sequence}.${s.recordedAt}`).join(', '),
  };
}

/** The header that lets the host cache a response that never changes (it must also say `immutable`). */
export const IMMUTABLE_SURROGATE_HEADERS: Readonly<Record<string, string>> = { 'Surrogate-Control': `max-age=${IMMUTABLE_MAX_AGE_S}` };
