/**
 * The client's network address for the guest. wasi:http gives a guest no peer address, so the
 * host adds one request header it controls, `x-app-client-address`, after dropping any copy a
 * client sent (host/http/exchange.ts), and tells the guest the header can be trusted
 * (`APP_CLIENT_ADDRESS_HEADER=trusted`, host/guest/guest-env.ts). The host knows nothing of what the
 * guest does with it (the auth service throttles per client).
 *
 * The address is the TCP peer's, unless the peer is a trusted proxy (--trusted-proxies): then it
 * is the right-most address of the proxies' chain that is not itself trusted (docs/deployment.md).
 * `Forwarded` (RFC 7239) is read when present, else `X-Forwarded-For`; a proxy that writes only
 * `X-Forwarded-For` must delete a `Forwarded` its client sent.
 */
import { clientKey } from '../../src/contract/client-key.ts';
import type { NodeRequest } from './node-http.ts';
import { canonicalAddress, rangeMatcher } from './cidr.ts';
import { parseForwarded, parseXForwardedFor, type Hop } from './forwarded.ts';
import type { HostLogger } from '../log.ts';

/** How the host finds the client address of a request; undefined when the socket is gone. */
export type ClientAddressOf = (req: NodeRequest) => string | undefined;

/** Each request's client key, found once: the per-client bounds all ask for it (limit, piece budget, fair share, relay share). */
const requestKeys = new WeakMap<NodeRequest, { of: ClientAddressOf; key: string | undefined }>();

/**
 * The key (src/contract/client-key.ts: IPv6 per /64) of the client `req` comes from, as
 * `clientAddress` finds it; undefined when the socket is gone. Worked out on the first ask and
 * kept with the request: with trusted proxies each ask would parse the forwarding headers again.
 */
export function clientKeyOf(req: NodeRequest, clientAddress: ClientAddressOf): string | undefined {
  const known = requestKeys.get(req);
  if (known?.of === clientAddress) return known.key;
  const address = clientAddress(req);
  const key = address === undefined ? undefined : clientKey(address);
  requestKeys.set(req, { of: clientAddress, key });
  return key;
}

/** The peer's IP address as Node saw it (an IPv4-mapped IPv6 address is shown as IPv4). */
export function peerAddress(req: NodeRequest): string | undefined {
  const address = req.socket?.remoteAddress;
  return address ? canonicalAddress(address) : undefined;
}

const headerText = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(', ') : value);

/** The chain the proxies report, client first: Forwarded wins over X-Forwarded-For (the standard first). */
function reportedChain(req: NodeRequest): Hop[] | undefined {
  const forwarded = headerText(req.headers.forwarded);
  if (forwarded !== undefined) return parseForwarded(forwarded);
  const forwardedFor = headerText(req.headers['x-forwarded-for']);
  return forwardedFor === undefined ? [] : parseXForwardedFor(forwardedFor);
}

/**
 * Walks the chain from the right (the hop the trusted peer added) while the hops are trusted
 * proxies; the first one that is not is the client. A hop a proxy could not name leaves the last
 * trusted proxy as the client; a malformed chain leaves the peer (nothing in it can be believed).
 */
export function clientAddressOf(trustedProxies: readonly string[]): ClientAddressOf {
  if (trustedProxies.length === 0) return peerAddress;
  const trusted = rangeMatcher(trustedProxies);
  return (req) => {
    const peer = peerAddress(req);
    if (peer === undefined || !trusted(peer)) return peer;
    const chain = reportedChain(req);
    if (chain === undefined) return peer;
    let client = peer;
    for (let i = chain.length - 1; i >= 0; i--) {
      const hop = chain[i];
      if (hop === null || hop === undefined) return client;
      client = hop;
      if (!trusted(hop)) return hop;
    }
    return client;
  };
}

/** At start: where client addresses come from; a warning when an https service trusts no proxy. */
export function logClientAddressSource(logger: HostLogger, trustedProxies: readonly string[], env: NodeJS.ProcessEnv): void {
  if (trustedProxies.length > 0) {
    logger.log('info', `client addresses: from Forwarded or X-Forwarded-For when the peer is in ${trustedProxies.join(', ')}`, {
      code: 'client_address_from_proxies',
      trusted_proxies: trustedProxies,
    });
    return;
  }
  logger.log('info', 'client addresses: the TCP peer (no --trusted-proxies)', { code: 'client_address_from_peer' });
  // The host serves plain HTTP: an https public base means a TLS-terminating proxy in front.
  if (/^https:/i.test(env.AUTH_PUBLIC_BASE_URL ?? '')) {
    logger.log('warn', 'AUTH_PUBLIC_BASE_URL is https but no proxy is trusted: every client behind the proxy shares its address and its sign-in limits; set --trusted-proxies', {
      code: 'trusted_proxies_missing',
    });
  }
}
