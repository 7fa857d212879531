/**
 * The key a client address is counted under: by the guest's sign-in limits and by the Node
 * host's limits per client (host/admission/client-limit.ts, fair-share.ts), one implementation
 * for all. One IPv4 address is one client (/32). An IPv6 host usually gets a
 * whole /64 (RFC 6177; SLAAC and privacy addresses, RFC 8981, pick any of its 2^64 interface ids
 * at will), so counting per /128 gave one subscriber unlimited fresh "clients": IPv6 addresses
 * are counted per /64. The address is parsed first, so every spelling of it (`::`, leading zeros,
 * upper case, an IPv4-mapped `::ffff:192.0.2.1`) gives the same key. Anything that does not parse
 * is counted as itself.
 */

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const GROUP = /^[0-9a-f]{1,4}$/;

/** The four bytes of a dotted-quad IPv4 address, or undefined. */
function ipv4Bytes(text: string): number[] | undefined {
  const match = IPV4.exec(text);
  if (!match) return undefined;
  const bytes = match.slice(1).map(Number);
  return bytes.every((b) => b <= 255) ? bytes : undefined;
}

/** The eight 16-bit groups of an IPv6 address (RFC 4291 §2.2 text forms), or undefined. */
function ipv6Groups(text: string): number[] | undefined {
  let body = text.toLowerCase();
  const tail: number[] = [];
  if (body.includes('.')) {
    // A trailing dotted quad stands for the last two groups (`::ffff:192.0.2.1`).
    const lastColon = body.lastIndexOf(':');
    const embedded = ipv4Bytes(body.slice(lastColon + 1));
    if (!embedded) return undefined;
    tail.push((embedded[0]! << 8) | embedded[1]!, (embedded[2]! << 8) | embedded[3]!);
    const prefix = body.slice(0, lastColon + 1);
    body = prefix.endsWith('::') ? prefix : prefix.slice(0, -1);
  }
  const halves = body.split('::');
  if (halves.length > 2) return undefined;
  const parse = (part: string) => (part === '' ? [] : part.split(':'));
  const head = parse(halves[0]!);
  const rest = halves.length === 2 ? parse(halves[1]!) : [];
  if (![...head, ...rest].every((g) => GROUP.test(g))) return undefined;
  const given = head.length + rest.length + tail.length;
  if (halves.length === 1 ? given !== 8 : given > 7) return undefined;
  const zeros = new Array<number>(8 - given).fill(0);
  return [...head.map((g) => Number.parseInt(g, 16)), ...zeros, ...rest.map((g) => Number.parseInt(g, 16)), ...tail];
}

export function clientKey(address: string): string {
  const v4 = ipv4Bytes(address);
  if (v4) return v4.join('.');
  const groups = address.includes(':') ? ipv6Groups(address) : undefined;
  if (!groups) return address;
  // IPv4-mapped (::ffff:a.b.c.d, RFC 4291 §2.5.5.2): the IPv4 client it stands for.
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}
