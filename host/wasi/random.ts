/** wasi:random for the Node host, from the operating system's CSPRNG. */
import { randomBytes } from 'node:crypto';

export const randomImports = {
  'wasi:random/random': {
    getRandomBytes: (len: bigint) => new Uint8Array(randomBytes(Number(len))),
    getRandomU64: () => randomBytes(8).readBigUInt64LE(0),
  },
};
