/**
 * Random tokens and one-way digests with Web Crypto, the same on both sides of the WIT: in the
 * component (`getRandomValues` goes through wasi:random; `subtle.digest('SHA-256')` works there)
 * and in the Node host, which makes the secrets of mailed links at delivery (mail-secrets.ts).
 */

/** `bytes` random bytes as unpadded base64url (RFC 4648 §5). */
export function randomToken(bytes = 32): string {
  return base64url(crypto.getRandomValues(new Uint8Array(bytes)));
}

export function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Lower-case hex SHA-256 of the UTF-8 text: how secrets and emails become stream and document names. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  let hex = '';
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
