/**
 * The proxy chains of `Forwarded` (RFC 7239) and `X-Forwarded-For` (de facto), as a list of hops,
 * client first: each hop an address, or `null` for a node a proxy did not name (`unknown`, an
 * obfuscated identifier, an element without `for=`). `undefined`: the value breaks the grammar,
 * and none of it can be believed.
 */
import { canonicalAddress, isAddress } from './cidr.ts';

export type Hop = string | null;

/** RFC 9110 §5.6.2 tchar. */
const TCHAR = /[!#$%&'*+.^_`|~0-9A-Za-z-]/;
/** RFC 7239 §6.3 obfnode / obfport. */
const OBFUSCATED = /^_[A-Za-z0-9._-]+$/;

const isPort = (text: string) => /^\d{1,5}$/.test(text) && Number(text) <= 65535;

/** The elements of a Forwarded value, each a map of lower-cased parameter to value (RFC 7239 §4). */
function forwardedElements(value: string): Array<Map<string, string>> | undefined {
  const elements: Array<Map<string, string>> = [];
  let pairs = new Map<string, string>();
  let i = 0;
  const skipSpace = () => {
    while (value[i] === ' ' || value[i] === '\t') i++;
  };
  for (;;) {
    skipSpace();
    if (i < value.length && value[i] !== ',' && value[i] !== ';') {
      let name = '';
      while (i < value.length && TCHAR.test(value[i]!)) name += value[i++];
      if (name === '' || value[i] !== '=') return undefined;
      i++;
      let text = '';
      if (value[i] === '"') {
        // quoted-string with quoted-pair (RFC 9110 §5.6.4)
        for (i++; i < value.length && value[i] !== '"'; i++) {
          if (value[i] === '\\') i++;
          if (i >= value.length) return undefined;
          text += value[i];
        }
        if (value[i] !== '"') return undefined;
        i++;
      } else {
        while (i < value.length && TCHAR.test(value[i]!)) text += value[i++];
        if (text === '') return undefined;
      }
      const key = name.toLowerCase();
      // "Each parameter MUST NOT occur more than once per forwarded-element" (§4).
      if (pairs.has(key)) return undefined;
      pairs.set(key, text);
      skipSpace();
    }
    if (i >= value.length) {
      elements.push(pairs);
      return elements;
    }
    if (value[i] === ';') i++;
    else if (value[i] === ',') {
      elements.push(pairs);
      pairs = new Map();
      i++;
    } else return undefined;
  }
}

/** RFC 7239 §6: node = nodename [ ":" node-port ]; an IPv6 nodename is bracketed. */
function forwardedNode(node: string): Hop | undefined {
  let name: string;
  let port: string | undefined;
  if (node.startsWith('[')) {
    const end = node.indexOf(']');
    const rest = node.slice(end + 1);
    if (end < 0 || (rest !== '' && !rest.startsWith(':'))) return undefined;
    name = node.slice(1, end);
    port = rest === '' ? undefined : rest.slice(1);
    if (!name.includes(':') || !isAddress(name)) return undefined;
  } else {
    const parts = node.split(':');
    if (parts.length > 2) return undefined;
    [name = '', port] = parts;
    if (name.toLowerCase() !== 'unknown' && !OBFUSCATED.test(name) && !(isAddress(name) && !name.includes(':'))) return undefined;
  }
  if (port !== undefined && !isPort(port) && !OBFUSCATED.test(port)) return undefined;
  return isAddress(name) ? canonicalAddress(name) : null;
}

export function parseForwarded(value: string): Hop[] | undefined {
  const elements = forwardedElements(value);
  if (elements === undefined) return undefined;
  const hops: Hop[] = [];
  for (const element of elements) {
    const node = element.get('for');
    const hop = node === undefined ? null : forwardedNode(node);
    if (hop === undefined) return undefined;
    hops.push(hop);
  }
  return hops;
}

/** Comma-separated addresses; an IPv6 one may be bracketed, either may carry a port; `unknown` names none. */
export function parseXForwardedFor(value: string): Hop[] | undefined {
  const hops: Hop[] = [];
  for (const raw of value.split(',')) {
    const entry = raw.trim();
    const [, bracketed, bracketedPort] = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry) ?? [];
    const [, ipv4, ipv4Port] = /^([0-9.]+):(\d+)$/.exec(entry) ?? [];
    const port = bracketedPort ?? ipv4Port;
    const address = port !== undefined && !isPort(port) ? undefined : isAddress(entry) ? entry : bracketed?.includes(':') ? bracketed : ipv4;
    if (address !== undefined && isAddress(address)) hops.push(canonicalAddress(address));
    else if (entry.toLowerCase() === 'unknown') hops.push(null);
    else return undefined;
  }
  return hops;
}
