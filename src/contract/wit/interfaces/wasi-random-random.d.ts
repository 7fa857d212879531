/** @module Interface wasi:random/random@0.2.12 **/
export function getRandomBytes(len: bigint): Uint8Array;
export function getRandomU64(): bigint;
