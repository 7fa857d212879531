/**
 * The `grpc-timeout` request header, read exactly as gRPC over HTTP/2 defines it
 * (https://github.com/grpc/grpc/blob/master/doc/PROTOCOL-HTTP2.md): TimeoutValue is at most 8
 * ASCII digits, TimeoutUnit one of H M S m u n, nothing else (no spaces, signs or other digits).
 * The one parser of the project: the guest's gRPC server and the Node host (host/http/grpc-deadline.ts)
 * both use it, so they never disagree on a deadline.
 */

const UNIT_MS: Record<string, number> = { H: 3_600_000, M: 60_000, S: 1_000, m: 1, u: 0.001, n: 0.000_001 };
// [0-9], not \d: the grammar's DIGIT is ASCII only.
const TIMEOUT = /^([0-9]{1,8})([HMSmun])$/;

/** The timeout in milliseconds (at most 99,999,999 hours); undefined when absent; null when malformed. */
export function parseGrpcTimeout(value: string | null | undefined): number | undefined | null {
  if (value === null || value === undefined) return undefined;
  const match = TIMEOUT.exec(value);
  if (!match) return null;
  return Number(match[1]) * UNIT_MS[match[2]!]!;
}
