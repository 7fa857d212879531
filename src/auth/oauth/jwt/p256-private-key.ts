/**
 * Reads a P-256 private key from PEM: PKCS#8 (`BEGIN PRIVATE KEY`, what providers hand out as a
 * .p8 file) or SEC1 (`BEGIN EC PRIVATE KEY`). Accepts "escaped PEM" (literal `\n` sequences, as a
 * key squeezed into one environment-variable line). Minimal DER reading, no crypto.subtle.
 */
import { OAuthError } from '../errors.ts';
import { isValidP256SecretKey } from './ecdsa-p256.ts';

const OID_EC_PUBLIC_KEY = '2a8648ce3d0201'; // 1.2.840.10045.2.1
const OID_P256 = '2a8648ce3d030107'; // 1.2.840.10045.3.1.7

interface Tlv {
  tag: number;
  start: number;
  end: number;
}

function readTlv(der: Uint8Array, offset: number): Tlv {
  const tag = der[offset];
  let length = der[offset + 1];
  if (tag === undefined || length === undefined) throw new Error('truncated');
  let start = offset + 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    if (count === 0 || count > 3) throw new Error('bad length');
    length = 0;
    for (let i = 0; i < count; i++) length = (length << 8) | (der[start + i] ?? 0);
    start += count;
  }
  const end = start + length;
  if (end > der.length) throw new Error('truncated');
  return { tag, start, end };
}

/** The TLVs directly inside a constructed value. */
function children(der: Uint8Array, parent: Tlv): Tlv[] {
  const out: Tlv[] = [];
  for (let at = parent.start; at < parent.end; ) {
    const tlv = readTlv(der, at);
    out.push(tlv);
    at = tlv.end;
  }
  return out;
}

const hex = (der: Uint8Array, t: Tlv) => Array.from(der.subarray(t.start, t.end), (b) => b.toString(16).padStart(2, '0')).join('');

/** ECPrivateKey (RFC 5915): SEQUENCE { version 1, privateKey OCTET STRING, [0] curve OID?, [1] pub? } */
function fromEcPrivateKey(der: Uint8Array, seq: Tlv, requireCurve: boolean): Uint8Array {
  const [version, key, ...rest] = children(der, seq);
  if (!version || !key || version.tag !== 0x02 || key.tag !== 0x04) throw new Error('not an ECPrivateKey');
  const params = rest.find((t) => t.tag === 0xa0);
  if (params) {
    const [oid] = children(der, params);
    if (!oid || hex(der, oid) !== OID_P256) throw new OAuthError('signing_key_invalid', 'curve');
  } else if (requireCurve) {
    throw new OAuthError('signing_key_invalid', 'curve');
  }
  return der.slice(key.start, key.end);
}

/** PrivateKeyInfo (RFC 5208): SEQUENCE { version, AlgorithmIdentifier { ecPublicKey, P-256 }, OCTET STRING } */
function fromPkcs8(der: Uint8Array, seq: Tlv): Uint8Array {
  const [, algorithm, wrapped] = children(der, seq);
  if (!algorithm || !wrapped || wrapped.tag !== 0x04) throw new Error('not PKCS#8');
  const [oid, curve] = children(der, algorithm);
  if (!oid || hex(der, oid) !== OID_EC_PUBLIC_KEY) throw new OAuthError('signing_key_invalid', 'curve');
  if (!curve || hex(der, curve) !== OID_P256) throw new OAuthError('signing_key_invalid', 'curve');
  return fromEcPrivateKey(der, readTlv(der, wrapped.start), false);
}

/** Turns literal `\n` (and `\r\n`) escapes into line breaks and trims quotes an env file may leave. */
function unescapePem(value: string): string {
  return value
    .trim()
    .replace(/^["']|["']$/g, '')
    .replace(/\\r\\n|\\n/g, '\n');
}

/** The 32-byte private scalar of a P-256 key in PEM or escaped PEM; throws `signing_key_invalid`. */
export function parseP256PrivateKey(pem: string): Uint8Array {
  const text = unescapePem(pem);
  const match = /-----BEGIN (PRIVATE KEY|EC PRIVATE KEY)-----([\s\S]+?)-----END \1-----/.exec(text);
  if (!match) throw new OAuthError('signing_key_invalid', 'pem');
  let scalar: Uint8Array;
  try {
    const der = Uint8Array.from(atob(match[2]!.replace(/\s+/g, '')), (c) => c.charCodeAt(0));
    const seq = readTlv(der, 0);
    scalar = match[1] === 'PRIVATE KEY' ? fromPkcs8(der, seq) : fromEcPrivateKey(der, seq, false);
  } catch (error) {
    if (error instanceof OAuthError) throw error;
    throw new OAuthError('signing_key_invalid', 'pem');
  }
  if (scalar.length !== 32 || !isValidP256SecretKey(scalar)) throw new OAuthError('signing_key_invalid', 'curve');
  return scalar;
}
