/**
 * The client's address as the host reports it in `x-app-client-address` (host/client-address.ts
 * adds it and drops any copy a client sent). wasi:http has no peer address, so this header is the
 * only source. Without it (wasmtime serve, in-process tests) every client is `unknown`, which
 * shares one per-client budget: stricter, never looser.
 */
export const CLIENT_ADDRESS_HEADER = 'x-app-client-address';

/** IPv4 or IPv6 text, nothing else (the value becomes a key-value key). */
const ADDRESS = /^[0-9A-Fa-f:.]{2,45}$/;

export function clientAddress(headers: Headers): string {
  const value = headers.get(CLIENT_ADDRESS_HEADER)?.trim() ?? '';
  return ADDRESS.test(value) ? value.toLowerCase() : 'unknown';
}
