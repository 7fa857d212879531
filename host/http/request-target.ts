/**
 * The request target and authority the guest sees, checked before an instance is taken: the guest
 * builds its URL from `authority` and `path-with-query`, and a value it cannot parse used to trap
 * it (a 500, the instance discarded and rebuilt), while a Host carrying a path was routed on.
 *
 * - origin-form (`/path?query`) passes as it is;
 * - absolute-form (`http://host/path`, RFC 9112 §3.2.2: a server MUST accept it) becomes its
 *   path-with-query, and its authority replaces Host;
 * - asterisk-form (`OPTIONS *`, RFC 9110 §9.3.7) is answered by the host: it asks about the server;
 * - the authority (Host, or HTTP/2 `:authority`) must be `uri-host [ ":" port ]` (RFC 9110 §7.2,
 *   RFC 3986 §3.2.2: IP-literal / IPv4address / reg-name) with a port of 0-65535, and appear once
 *   on HTTP/1.1 (RFC 9112 §3.2: missing, repeated or invalid is 400).
 */

/** What the host does with a request's target. */
export type TargetDecision = { kind: 'guest'; authority: string; pathWithQuery: string } | { kind: 'server-options' } | { kind: 'reject'; message: string };

/** The request line and head fields the decision needs. */
export interface TargetInput {
  method: string;
  /** The request-target as sent (Node's `req.url`; HTTP/2 `:path`). */
  target: string;
  /** Host field values as sent, in order (`rawHeaders`). */
  hosts: readonly string[];
  /** HTTP/2 `:authority`, when present. */
  authority?: string | undefined;
  http2: boolean;
}

// RFC 3986 §3.2.2 and appendix A, ASCII only.
const DEC_OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])';
const IPV4 = `${DEC_OCTET}(?:\\.${DEC_OCTET}){3}`;
const H16 = '[0-9A-Fa-f]{1,4}';
const LS32 = `(?:${H16}:${H16}|${IPV4})`;
const IPV6 = [
  `(?:${H16}:){6}${LS32}`,
  `::(?:${H16}:){5}${LS32}`,
  `(?:${H16})?::(?:${H16}:){4}${LS32}`,
  `(?:(?:${H16}:){0,1}${H16})?::(?:${H16}:){3}${LS32}`,
  `(?:(?:${H16}:){0,2}${H16})?::(?:${H16}:){2}${LS32}`,
  `(?:(?:${H16}:){0,3}${H16})?::${H16}:${LS32}`,
  `(?:(?:${H16}:){0,4}${H16})?::${LS32}`,
  `(?:(?:${H16}:){0,5}${H16})?::${H16}`,
  `(?:(?:${H16}:){0,6}${H16})?::`,
].join('|');
const IP_FUTURE = "[Vv][0-9A-Fa-f]+\\.[A-Za-z0-9\\-._~!$&'()*+,;=:]+";
const REG_NAME = "(?:[A-Za-z0-9\\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})+";
/** `uri-host [ ":" port ]`; the host is never empty (RFC 9110 §4.2.1: an empty http host is invalid). */
const AUTHORITY = new RegExp(`^(?:\\[(?:${IPV6}|${IP_FUTURE})\\]|${IPV4}|${REG_NAME})(?::([0-9]*))?$`);
/** The longest authority accepted: a DNS name (253) plus a port, with room for an IPv6 literal. */
const MAX_AUTHORITY = 300;

/** Is `value` a Host the guest can build its URL from? */
export function isValidAuthority(value: string): boolean {
  if (value.length > MAX_AUTHORITY) return false;
  const match = AUTHORITY.exec(value);
  if (!match) return false;
  const port = match[1];
  if (port !== undefined && port !== '' && (port.length > 5 || Number(port) > 65_535)) return false;
  // The WHATWG URL parser the guest uses refuses some RFC 3986 reg-names (e.g. `1.2.3.999`, a
  // percent-encoded space): those are refused here too, before any instance sees them.
  return URL.canParse(`http://${value}/`);
}

const ABSOLUTE_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?#]*)([^#]*)$/;

export function decideTarget(input: TargetInput): TargetDecision {
  if (input.target === '*') {
    return input.method === 'OPTIONS' ? { kind: 'server-options' } : { kind: 'reject', message: 'the asterisk target is only for OPTIONS' };
  }
  let pathWithQuery = input.target;
  let fromTarget: string | undefined;
  if (!pathWithQuery.startsWith('/')) {
    const absolute = ABSOLUTE_FORM.exec(pathWithQuery);
    if (!absolute || !/^https?:/i.test(pathWithQuery)) return { kind: 'reject', message: 'the request target is not a path or an http URL' };
    fromTarget = absolute[1]!;
    pathWithQuery = absolute[2] || '/';
    if (!pathWithQuery.startsWith('/')) pathWithQuery = `/${pathWithQuery}`;
  }
  if (!input.http2 && input.hosts.length !== 1) return { kind: 'reject', message: input.hosts.length === 0 ? 'the Host header is missing' : 'the Host header is repeated' };
  if (input.hosts.length > 1) return { kind: 'reject', message: 'the Host header is repeated' };
  // Absolute-form: the target's authority replaces Host (RFC 9112 §3.2.2); HTTP/2: :authority, else Host (RFC 9113 §8.3.1).
  const authority = fromTarget ?? input.authority ?? input.hosts[0];
  if (authority === undefined) return { kind: 'reject', message: 'the request names no authority' };
  if (!isValidAuthority(authority)) return { kind: 'reject', message: 'the Host header is not a valid host[:port]' };
  if (input.http2 && input.authority !== undefined && input.hosts.length === 1 && input.hosts[0] !== input.authority) {
    // RFC 9113 §8.3.1: a Host that names another entity than :authority makes the request malformed.
    return { kind: 'reject', message: 'Host and :authority differ' };
  }
  if (!URL.canParse(`http://${authority}${pathWithQuery}`)) return { kind: 'reject', message: 'the request target is not a valid path' };
  return { kind: 'guest', authority, pathWithQuery };
}
