/**
 * IP addresses and address ranges in CIDR notation (`10.0.0.0/8`, `2001:db8::/32`; a bare address
 * is one host), IPv4 and IPv6, matched with Node's BlockList.
 */
import { BlockList, isIP } from 'node:net';

/** Whether `text` is an IP address literal (no IPv6 zone id: it names no client). */
export function isAddress(text: string): boolean {
  return isIP(text) !== 0 && !text.includes('%');
}

/** One spelling per address: lower case, an IPv4-mapped IPv6 address shown as IPv4. */
export function canonicalAddress(address: string): string {
  const lower = address.toLowerCase();
  return lower.startsWith('::ffff:') && isIP(lower.slice(7)) === 4 ? lower.slice(7) : lower;
}

/** `address/prefix` with a prefix within the address family, or a bare address. */
export function isCidr(text: string): boolean {
  const [address = '', prefix, ...rest] = text.split('/');
  if (rest.length > 0 || !isAddress(address)) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (isIP(address) === 4 ? 32 : 128);
}

const family = (address: string) => (isIP(address) === 4 ? 'ipv4' : 'ipv6');

/** A membership test for ranges that each passed `isCidr` (an IPv4-mapped address matches IPv4 ranges). */
export function rangeMatcher(ranges: readonly string[]): (address: string) => boolean {
  const list = new BlockList();
  for (const range of ranges) {
    const [address = '', prefix] = range.split('/');
    list.addSubnet(address, prefix === undefined ? (family(address) === 'ipv4' ? 32 : 128) : Number(prefix), family(address));
  }
  return (address) => isAddress(address) && list.check(address, family(address));
}

/** 127.0.0.0/8, ::1 and localhost; a wildcard (0.0.0.0, ::) or any other interface is not. */
export function isLoopbackAddress(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}
