/** @module Interface app:platform/password-hashing@0.1.0 **/
/**
 * Hashes `password` with a fresh random salt. The result is a self-describing PHC string
 * (`$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>`, base64 without padding) holding the
 * algorithm, its parameters and the salt, so `verify` needs nothing else.
 */
export function hash(password: string): string;
/**
 * Whether `password` matches `encoded` (a string from `hash`), compared in constant time.
 * `invalid` when `encoded` is not a hash this host understands.
 */
export function verify(password: string, encoded: string): boolean;
export type PlatformError = import('./app-platform-types.js').PlatformError;
