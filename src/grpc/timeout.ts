/** The `grpc-timeout` request header (gRPC over HTTP/2 spec): 1-8 digits and a unit. */

const UNIT_MS: Record<string, number> = { H: 3_600_000, M: 60_000, S: 1_000, m: 1, u: 0.001, n: 0.000_001 };
const TIMEOUT = /^(\d{1,8})([HMSmun])$/;

/** The timeout in milliseconds; undefined when absent; null when malformed. */
export function parseGrpcTimeout(value: string | null | undefined): number | undefined | null {
  if (value === null || value === undefined) return undefined;
  const match = TIMEOUT.exec(value.trim());
  if (!match) return null;
  return Number(match[1]) * UNIT_MS[match[2]!]!;
}
