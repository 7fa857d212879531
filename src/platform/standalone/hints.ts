/**
 * Hint files of the file store (`events/head`, `projections/head`, `…/tip`): a number saying where
 * to start probing. Only ever a starting point: readers confirm it against the immutable files.
 */
import type { FileSystem } from './file-system.ts';
import { decodeText, encodeText } from './names.ts';

/** The hinted number, or 0 when there is no hint yet. */
export function readHint(fs: FileSystem, path: string): bigint {
  const bytes = fs.read(path);
  return bytes ? BigInt(decodeText(bytes)) : 0n;
}

export function writeHint(fs: FileSystem, path: string, n: bigint): void {
  fs.replace(path, encodeText(n.toString()));
}
