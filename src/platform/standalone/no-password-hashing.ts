/**
 * Password hashing under `wasmtime serve`: not offered. A memory-hard KDF in the guest's
 * interpreter takes minutes (scrypt N=2^10 alone took 4.7 s; see README "Password hashing"),
 * and wasmtime serve cannot supply the Node host's hashing import. Password sign-in therefore
 * answers 503 `store` ("unavailable") here; the runtime matrix documents it.
 */
import { StoreError } from '../../errors.ts';
import type { PasswordHasher } from '../ports.ts';

const unavailable = (): never => {
  throw new StoreError('unavailable', 'password hashing is provided only by the Node host');
};

export const noPasswordHashing: PasswordHasher = { hash: unavailable, verify: unavailable };
