/**
 * What the guest says about a response's cacheability, read from its headers:
 *
 *   Surrogate-Control: max-age=<s>[, no-store]   W3C Edge Architecture 1.0 (Surrogate-Control is
 *                                                for surrogates such as this host and overrides
 *                                                Cache-Control for them; it never reaches a client)
 *   x-app-cache-deps: <stream>@<revision>.<sequence>.<recorded-at>, ...
 *                                                the event-store streams the body was built from,
 *                                                each at its newest event when read (stream id
 *                                                URI-encoded); host-private, stripped like the above
 *   Cache-Control: ... private | immutable ...   RFC 9111 §5.2.2.7 / RFC 8246
 *   Vary: <field>, ...                           RFC 9110 §12.5.5
 */
import * as v from 'valibot';
import { CACHE_DEPS_HEADER } from '../../src/contract/headers.ts';
import { MAX_HEAD_STREAMS, type StreamHead } from '../storage/stream-heads.ts';

export const SURROGATE_CONTROL = 'surrogate-control';
/** Response headers the host consumes: never sent to a client, stored or not. */
export const PRIVATE_RESPONSE_HEADERS: ReadonlySet<string> = new Set([SURROGATE_CONTROL, CACHE_DEPS_HEADER]);

/** Request headers that identify a user: a response is cached for such a request only if it Varies on them. */
export const CREDENTIAL_HEADERS: readonly string[] = ['cookie', 'authorization'];

export interface Dependency extends StreamHead {
  streamId: string;
}

/** Comma-separated tokens of a list header, lower-cased (RFC 9110 §5.6.1). */
export function listTokens(value: string | undefined): string[] {
  if (value === undefined) return [];
  return value
    .split(',')
    .map((t) => t.trim().toLowerCase())
    .filter((t) => t.length > 0);
}

/**
 * The surrogate lifetime in seconds, or undefined when surrogates may not store the response:
 * no Surrogate-Control, `no-store`, or no positive `max-age`. Directives targeted at a named
 * surrogate (`directive;name`, Edge Architecture §2.2) are not aimed at this host and are ignored.
 */
export function surrogateMaxAge(value: string | undefined): number | undefined {
  let maxAge: number | undefined;
  for (const token of listTokens(value)) {
    if (token.includes(';')) continue;
    if (token === 'no-store' || token === 'no-store-remote') return undefined;
    const m = /^max-age=(\d{1,10})(?:\+\d{1,10})?$/.exec(token);
    if (m) maxAge = Number(m[1]);
  }
  return maxAge !== undefined && maxAge > 0 ? maxAge : undefined;
}

const u64 = v.pipe(
  v.string(),
  v.regex(/^\d{1,19}$/),
  v.transform((digits: string) => BigInt(digits)),
  v.maxValue(0xffff_ffff_ffff_ffffn),
);
const depSchema = v.object({
  streamId: v.pipe(v.string(), v.minLength(1), v.maxLength(512)),
  revision: u64,
  sequence: u64,
  recordedAt: u64,
});

/** The declared dependencies, or undefined if the header is malformed or names too many streams. */
export function parseDependencies(value: string): Dependency[] | undefined {
  const parts = value
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
  if (parts.length === 0 || parts.length > MAX_HEAD_STREAMS) return undefined;
  const deps: Dependency[] = [];
  for (const part of parts) {
    const m = /^([^@\s]+)@(\d+)\.(\d+)\.(\d+)$/.exec(part);
    if (!m) return undefined;
    let streamId: string;
    try {
      streamId = decodeURIComponent(m[1]!);
    } catch {
      return undefined;
    }
    const parsed = v.safeParse(depSchema, { streamId, revision: m[2], sequence: m[3], recordedAt: m[4] });
    if (!parsed.success) return undefined;
    deps.push(parsed.output);
  }
  return deps;
}

/** The header value for `deps` (what src/http/surrogate.ts writes on the guest's side). */
export function formatDependencies(deps: readonly Dependency[]): string {
  return deps.map((d) => `${encodeURIComponent(d.streamId)}@${d.revision}.${d.sequence}.${d.recordedAt}`).join(', ');
}

export function sameHead(a: StreamHead, b: StreamHead): boolean {
  return a.revision === b.revision && a.sequence === b.sequence && a.recordedAt === b.recordedAt;
}
