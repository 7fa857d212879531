/**
 * errno codes of a store server that cannot be reached (refused, reset, timed out, no route, DNS),
 * shared by the PostgreSQL and Redis backends: each maps them to `unavailable`.
 */
export const NETWORK_ERROR_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EADDRNOTAVAIL',
  'ENOENT', // a unix socket path that does not exist
]);
