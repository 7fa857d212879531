/**
 * The standalone store's FileSystem port on node:fs, with the same semantics as the
 * wasi:filesystem implementation inside the component (src/platform/standalone/wasi-file-system.ts):
 * exclusive publish by link(2) of a complete temporary file, atomic replace by rename(2).
 */
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parentOf, tempPath, type FileSystem } from '../../src/platform/standalone/file-system.ts';

const code = (error: unknown) => (error as NodeJS.ErrnoException).code;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

export function nodeFileSystem(root: string): FileSystem {
  const abs = (path: string) => join(root, path);

  /** Runs `op`; on ENOENT creates the parent of `path` once and retries. */
  function withParent<T>(path: string, op: () => T): T {
    try {
      return op();
    } catch (error) {
      if (code(error) !== 'ENOENT') throw error;
      mkdirSync(abs(parentOf(path)), { recursive: true });
      return op();
    }
  }

  function writeTemp(data: Uint8Array): string {
    const temp = tempPath();
    withParent(temp, () => writeFileSync(abs(temp), data, { flag: 'wx' }));
    return temp;
  }

  return {
    read(path) {
      try {
        return readFileSync(abs(path));
      } catch (error) {
        if (code(error) === 'ENOENT') return undefined;
        throw error;
      }
    },
    publish(path, data) {
      const temp = writeTemp(data);
      try {
        withParent(path, () => linkSync(abs(temp), abs(path)));
        return true;
      } catch (error) {
        if (code(error) === 'EEXIST') return false;
        throw error;
      } finally {
        unlinkSync(abs(temp));
      }
    },
    replace(path, data) {
      const temp = writeTemp(data);
      withParent(path, () => renameSync(abs(temp), abs(path)));
    },
    rename(from, to) {
      try {
        withParent(to, () => {
          try {
            renameSync(abs(from), abs(to));
          } catch (error) {
            // ENOENT because `from` is gone is an answer, not a missing parent.
            if (code(error) === 'ENOENT' && !existsSync(abs(from))) throw Object.assign(new Error('gone'), { code: 'GONE' });
            throw error;
          }
        });
        return true;
      } catch (error) {
        if (code(error) === 'GONE') return false;
        throw error;
      }
    },
    remove(path) {
      try {
        unlinkSync(abs(path));
        return true;
      } catch (error) {
        if (code(error) === 'ENOENT') return false;
        throw error;
      }
    },
    exists: (path) => existsSync(abs(path)),
    list(dir) {
      try {
        return readdirSync(abs(dir));
      } catch (error) {
        if (code(error) === 'ENOENT') return [];
        throw error;
      }
    },
    removeTree: (dir) => rmSync(abs(dir), { recursive: true, force: true }),
    sleep: (ms) => void Atomics.wait(sleeper, 0, 0, ms),
  };
}
