// Password hashing for the stock preview2-shim server, synchronous like every import there.
// (No benchmarked route hashes; the component imports the interface, so it must resolve.)
import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';

const N = 1 << 15,
  r = 8,
  p = 1;
export function hash(password) {
  const salt = randomBytes(16);
  const key = scryptSync(password, salt, 32, { N, r, p, maxmem: 256 * N * r });
  return `$scrypt$n=${N},r=${r},p=${p}$${salt.toString('base64')}$${key.toString('base64')}`;
}
export function verify(password, encoded) {
  const [, , , salt, key] = encoded.split('$');
  const expected = Buffer.from(key ?? '', 'base64');
  const actual = scryptSync(password, Buffer.from(salt ?? '', 'base64'), expected.length, { N, r, p, maxmem: 256 * N * r });
  return expected.length > 0 && timingSafeEqual(actual, expected);
}
