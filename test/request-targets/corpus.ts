/**
 * A generated corpus of HTTP/1.1 request heads that stress the request line and Host: the target
 * forms of RFC 9112 §3.2 (origin, absolute, authority, asterisk), odd and forbidden methods,
 * percent-encoding, control bytes, ports out of range, IPv6 literals, paths in Host, empty,
 * missing and repeated Host. Each axis is covered whole against a plain value of the others, then
 * a seeded random mix (same seed, same corpus) crosses them.
 */

export interface RawCase {
  /** What the case is, for failure messages. */
  label: string;
  /** The request head as bytes (latin1: each char one byte, so control bytes go out as sent). */
  head: string;
  /** Host field values sent (null: none). */
  host: string | null | string[];
}

/**
 * `wasmtime serve` (49) cannot hand these to any component: a request without an authority, or
 * a Host that is not UTF-8 (a latin1 byte here). It answers 500 itself before a guest runs
 * ("invalid HTTP request missing authority in URI and host header", "failed to convert header to
 * a str"); a proxy in front must refuse them (docs/wasmtime.md).
 */
export function beyondWasmtime(host: RawCase['host']): boolean {
  const values = host === null ? [] : Array.isArray(host) ? host : [host];
  return values.length === 0 || values.some((value) => /[\u0080-\u00ff]/.test(value));
}

const METHODS = ['GET', 'HEAD', 'POST', 'OPTIONS', 'DELETE', 'PUT', 'PATCH', 'TRACE', 'CONNECT', 'PROPFIND', 'QUERY', 'FOO', 'get'];

const TARGETS = [
  '/api/health',
  '/api/counter/view?x=1&y=%20',
  'http://127.0.0.1/api/health',
  'http://h/api/counter/view?',
  'HTTP://H:8080/api/health?q',
  'http://h:99999/api/health',
  'http://u:p@h/api/health',
  'http://[::1]:80/api/health',
  'http://[/api/health',
  'http:///api/health',
  'https://h',
  'ftp://h/api/health',
  'h:80',
  '*',
  '//evil.example/api/health',
  '/%00',
  '/%zz%',
  '/api%2Fhealth',
  '/api/./counter/../health',
  '/api/health#fragment',
  `/${'a'.repeat(2_000)}`,
  '/\u00e9',
];

const HOSTS: Array<string | null | string[]> = [
  'h',
  'H.EXAMPLE.',
  'h:80',
  'h:0',
  'h:65535',
  'h:65536',
  'h:99999',
  `h:${'9'.repeat(40)}`,
  'h:',
  'h:-1',
  'h:8o',
  '[',
  ']',
  '[::1]',
  '[::1]:8080',
  '[fe80::1%25eth0]',
  '[v1.fe]',
  '[::g]',
  '[1.2.3.4]',
  '::1',
  '1.2.3.4',
  '1.2.3.999',
  '0x7f.1',
  'a b',
  'h/api/counter/view?',
  'h?x=1',
  'h#f',
  'u@h',
  'h\\x',
  '%41',
  '%zz',
  '%2F',
  'h%00',
  'h\u0001',
  'h\u007f',
  'xn--',
  'xn--a.test',
  '\u00e9.test',
  '',
  ' h ',
  'h'.repeat(400),
  null,
  ['h', 'h'],
  ['h', 'other'],
];

function head(method: string, target: string, host: string | null | string[]): string {
  const hosts = host === null ? [] : Array.isArray(host) ? host : [host];
  const fields = hosts.map((h) => `Host: ${h}\r\n`).join('');
  return `${method} ${target} HTTP/1.1\r\n${fields}Content-Length: 0\r\nConnection: close\r\n\r\n`;
}

function label(method: string, target: string, host: string | null | string[]): string {
  return JSON.stringify({ method, target: target.length > 60 ? `${target.slice(0, 60)}…` : target, host });
}

/** mulberry32: a small seeded generator, so the corpus is the same on every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export function requestTargetCorpus(mixed = 120, seed = 20_261_126): RawCase[] {
  const cases: RawCase[] = [];
  const add = (method: string, target: string, host: string | null | string[]) => cases.push({ label: label(method, target, host), head: head(method, target, host), host });
  for (const host of HOSTS) add('GET', '/api/health', host);
  for (const target of TARGETS) add(target === 'h:80' ? 'CONNECT' : target === '*' ? 'OPTIONS' : 'GET', target, 'h');
  for (const method of METHODS) add(method, '/api/health', 'h');
  add('GET', '*', 'h');
  const random = seeded(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  for (let i = 0; i < mixed; i++) add(pick(METHODS), pick(TARGETS), pick(HOSTS));
  return cases;
}
