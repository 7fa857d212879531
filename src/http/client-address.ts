/**
 * The client's address as the host reports it in `x-app-client-address`. wasi:http has no peer
 * address, so a header is the only source, and a header is only as good as whoever set it: the
 * guest believes it only when its host says it sets the header itself and drops a client's copy
 * (`APP_CLIENT_ADDRESS_HEADER=trusted`, which the Node host passes, host/guest/guest-env.ts). Without that
 * (`wasmtime serve`, where a client could name itself with the header) every client is `unknown`:
 * per-client budgets become one budget for everyone, which no client can step around by naming
 * another address (docs/security.md).
 */
import { GUEST_ENV } from '../contract/environment.ts';
import { CLIENT_ADDRESS_HEADER } from '../contract/headers.ts';

/** The client of every request when the header cannot be believed. */
const UNKNOWN_CLIENT_ADDRESS = 'unknown';

/** IPv4 or IPv6 text, nothing else (the value becomes a key-value key). */
const ADDRESS = /^[0-9A-Fa-f:.]{2,45}$/;

export function clientAddressTrusted(env: ReadonlyMap<string, string>): boolean {
  return env.get(GUEST_ENV.clientAddressHeader) === 'trusted';
}

export function clientAddress(headers: Headers, trusted: boolean): string {
  if (!trusted) return UNKNOWN_CLIENT_ADDRESS;
  const value = headers.get(CLIENT_ADDRESS_HEADER)?.trim() ?? '';
  return ADDRESS.test(value) ? value.toLowerCase() : UNKNOWN_CLIENT_ADDRESS;
}
