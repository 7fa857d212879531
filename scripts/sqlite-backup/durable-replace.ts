/**
 * Puts a finished file in place so that a crash leaves either the old file or the whole new one:
 * fsync the file, rename it over the target (atomic within a directory), fsync the directory so
 * the rename itself is on disk.
 */
import { closeSync, fsyncSync, openSync, renameSync } from 'node:fs';
import { dirname } from 'node:path';

function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export function replaceDurably(finished: string, target: string): void {
  fsyncPath(finished);
  renameSync(finished, target);
  fsyncPath(dirname(target));
}

/** A sibling name for work in progress: same directory (so the rename stays atomic), unique to this process. */
export function partialName(target: string): string {
  return `${target}.partial-${process.pid}`;
}
