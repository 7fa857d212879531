/**
 * Which `Host` values a listener that is not meant for browsers answers. A DNS-rebinding page
 * reaches a private listener under the attacker's own name (`Host: evil.example:9464`), so the
 * defence is to answer only names the operator chose; an IP literal is never a rebinding (the
 * page's origin is then the listener itself). Jackson et al., "Protecting Browsers from DNS
 * Rebinding Attacks" (CCS 2007), §5: servers should reject requests with an unexpected Host.
 */
import { isAddress } from './cidr.ts';

/** The name of a Host value (`name[:port]`, `[v6][:port]`), lower case without a trailing dot; undefined when malformed. */
export function hostName(host: string): string | undefined {
  const match = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9._-]+))(?::(\d{1,5}))?$/.exec(host);
  if (match === null || Number(match[3] ?? 0) > 65535) return undefined;
  return (match[1] ?? match[2])?.toLowerCase().replace(/\.$/, '');
}

/** IP literals, `localhost` and the given names (the interface bound and any the operator lists). */
export function hostAllowlist(names: readonly string[]): (host: string | undefined) => boolean {
  const allowed = new Set(['localhost', ...names.map((name) => name.toLowerCase())]);
  return (host) => {
    // HTTP/1.0 without Host: not a browser (Node answers 400 to HTTP/1.1 without one).
    if (host === undefined) return true;
    const name = hostName(host);
    return name !== undefined && (isAddress(name) || allowed.has(name));
  };
}
