/**
 * The client's network address for the guest. wasi:http gives a guest no peer address, so the
 * host adds one request header it controls, `x-app-client-address: <peer IP>`, after dropping any
 * copy a client sent (host/exchange.ts). The host knows nothing of what the guest does with it
 * (the auth service throttles per client). Behind a reverse proxy the peer is the proxy: every
 * client then shares its address (see docs/security.md).
 */
import type { NodeRequest } from './exchange.ts';

export const CLIENT_ADDRESS_HEADER = 'x-app-client-address';

/** The peer's IP address as Node saw it (an IPv4-mapped IPv6 address is shown as IPv4). */
export function peerAddress(req: NodeRequest): string | undefined {
  const address = req.socket?.remoteAddress;
  if (!address) return undefined;
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}
