/**
 * The tiny filesystem the standalone store is written against. Two implementations with the
 * same semantics: wasi:filesystem inside the component (./wasi-file-system.ts) and node:fs for
 * the conformance suite (scripts/wasmtime/node-file-system.ts). Paths are relative to the data
 * directory, `/`-separated; parent directories are created on demand.
 *
 * The store's atomicity rests on three POSIX guarantees both implementations keep:
 * - `publish`: link(2) of a fully written temporary file fails with EEXIST when the name is taken,
 *   so exactly one of racing writers gets a name, and no reader ever sees a half-written file;
 * - `replace`: rename(2) over an existing name is atomic (readers see the old or the new file);
 * - `rename`: of racing renames of one file exactly one succeeds (the others see ENOENT).
 */
export interface FileSystem {
  /** The whole file, or undefined when it does not exist. */
  read(path: string): Uint8Array | undefined;
  /** Creates `path` with `data`, all at once; false (nothing written) when `path` exists. */
  publish(path: string, data: Uint8Array): boolean;
  /** Writes `path` with `data`, atomically replacing any previous file. */
  replace(path: string, data: Uint8Array): void;
  /** Renames `from` to `to` (replacing `to`); false when `from` does not exist. */
  rename(from: string, to: string): boolean;
  /** Deletes a file; false when it did not exist. */
  remove(path: string): boolean;
  exists(path: string): boolean;
  /** Names in a directory (empty when it does not exist). */
  list(dir: string): string[];
  /** Deletes a directory and everything under it. */
  removeTree(dir: string): void;
  /** Blocks the caller (the store's only waits are short lock back-offs). */
  sleep(ms: number): void;
}

/** Where temporary files live before they are linked or renamed into place. */
export const TEMP_DIR = 'tmp';

export function tempPath(): string {
  return `${TEMP_DIR}/${crypto.randomUUID()}`;
}

export function parentOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}
