/**
 * The FileSystem port on wasi:filesystem, rooted at a preopened directory (`wasmtime serve
 * --dir <host>::<guest>`). Same semantics as the node:fs implementation the conformance suite
 * runs: exclusive publish by link-at of a complete temporary file, atomic replace by rename-at.
 */
import { getDirectories } from 'wasi:filesystem/preopens@0.2.12';
import type { Descriptor, ErrorCode } from 'wasi:filesystem/types@0.2.12';
import { subscribeDuration } from 'wasi:clocks/monotonic-clock@0.2.12';
import { FileStoreFailure } from './failure.ts';
import { parentOf, tempPath, type FileSystem } from './file-system.ts';

/** componentize-js throws an imported function's `err` as an Error whose `payload` is the error code. */
function codeOf(error: unknown): ErrorCode | undefined {
  const payload = (error as { payload?: unknown } | null)?.payload;
  return typeof payload === 'string' ? (payload as ErrorCode) : undefined;
}

class FsError extends Error {
  constructor(op: string, error: unknown) {
    super(`${op} failed: ${codeOf(error) ?? (error instanceof Error ? error.message : String(error))}`);
    this.name = 'FsError';
  }
}

/** Bytes asked for per read: more than any of the store's small files holds. */
const READ_CHUNK = 65_536n;

export function preopenedDirectory(guestPath: string): Descriptor {
  const found = getDirectories().find(([, path]) => path === guestPath);
  // Unavailable (503 `store`), not a crash: the runtime was started without the data directory.
  if (!found) throw FileStoreFailure.unavailable(`no preopened directory ${guestPath} (wasmtime serve --dir <host>::${guestPath})`);
  return found[0];
}

export function wasiFileSystem(root: Descriptor): FileSystem {
  function mkdirs(dir: string): void {
    let path = '';
    for (const part of dir.split('/').filter(Boolean)) {
      path = path ? `${path}/${part}` : part;
      try {
        root.createDirectoryAt(path);
      } catch (error) {
        if (codeOf(error) !== 'exist') throw new FsError('create-directory', error);
      }
    }
  }

  /** Runs `op`; when the parent of `path` is missing, creates it once and retries. */
  function withParent<T>(path: string, op: () => T): T {
    try {
      return op();
    } catch (error) {
      if (codeOf(error) !== 'no-entry') throw error;
      mkdirs(parentOf(path));
      return op();
    }
  }

  function writeTemp(data: Uint8Array): string {
    const temp = tempPath();
    const file = withParent(temp, () => root.openAt({}, temp, { create: true, exclusive: true }, { write: true }));
    try {
      let offset = 0;
      while (offset < data.byteLength) offset += Number(file.write(data.subarray(offset), BigInt(offset)));
    } finally {
      file[Symbol.dispose]();
    }
    return temp;
  }

  function unlink(path: string): boolean {
    try {
      root.unlinkFileAt(path);
      return true;
    } catch (error) {
      if (codeOf(error) === 'no-entry') return false;
      throw new FsError('unlink', error);
    }
  }

  function exists(path: string): boolean {
    try {
      root.statAt({}, path);
      return true;
    } catch (error) {
      if (codeOf(error) === 'no-entry') return false;
      throw new FsError('stat', error);
    }
  }

  function list(dir: string): Array<{ name: string; directory: boolean }> {
    let handle: Descriptor;
    try {
      handle = root.openAt({}, dir, { directory: true }, { read: true });
    } catch (error) {
      if (codeOf(error) === 'no-entry') return [];
      throw new FsError('open-directory', error);
    }
    try {
      const entries = handle.readDirectory();
      const names: Array<{ name: string; directory: boolean }> = [];
      for (let entry = entries.readDirectoryEntry(); entry; entry = entries.readDirectoryEntry()) {
        names.push({ name: entry.name, directory: entry.type === 'directory' });
      }
      entries[Symbol.dispose]();
      return names;
    } finally {
      handle[Symbol.dispose]();
    }
  }

  return {
    read(path) {
      let file: Descriptor;
      try {
        file = root.openAt({}, path, {}, { read: true });
      } catch (error) {
        if (codeOf(error) === 'no-entry') return undefined;
        throw new FsError('open', error);
      }
      try {
        const chunks: Uint8Array[] = [];
        let size = 0;
        for (;;) {
          const [chunk, end] = file.read(READ_CHUNK, BigInt(size));
          if (chunk.byteLength > 0) chunks.push(chunk);
          size += chunk.byteLength;
          // A short read of a regular file is its end: no second call to hear so (the store's files are small).
          if (end || chunk.byteLength < Number(READ_CHUNK)) break;
        }
        if (chunks.length === 1) return chunks[0];
        const all = new Uint8Array(size);
        let at = 0;
        for (const chunk of chunks) {
          all.set(chunk, at);
          at += chunk.byteLength;
        }
        return all;
      } finally {
        file[Symbol.dispose]();
      }
    },
    publish(path, data) {
      const temp = writeTemp(data);
      try {
        withParent(path, () => root.linkAt({}, temp, root, path));
        return true;
      } catch (error) {
        if (codeOf(error) === 'exist') return false;
        throw new FsError('link', error);
      } finally {
        unlink(temp);
      }
    },
    replace(path, data) {
      const temp = writeTemp(data);
      try {
        withParent(path, () => root.renameAt(temp, root, path));
      } catch (error) {
        unlink(temp);
        throw new FsError('rename', error);
      }
    },
    rename(from, to) {
      try {
        root.renameAt(from, root, to);
        return true;
      } catch (error) {
        if (codeOf(error) !== 'no-entry') throw new FsError('rename', error);
        if (!exists(from)) return false; // someone else moved it first
        mkdirs(parentOf(to));
        try {
          root.renameAt(from, root, to);
          return true;
        } catch (again) {
          if (codeOf(again) === 'no-entry') return false;
          throw new FsError('rename', again);
        }
      }
    },
    remove: unlink,
    exists,
    list: (dir) => list(dir).map((e) => e.name),
    removeTree(dir) {
      for (const entry of list(dir)) {
        if (entry.directory) this.removeTree(`${dir}/${entry.name}`);
        else unlink(`${dir}/${entry.name}`);
      }
      try {
        root.removeDirectoryAt(dir);
      } catch (error) {
        if (codeOf(error) !== 'no-entry') throw new FsError('remove-directory', error);
      }
    },
    sleep(ms) {
      const pollable = subscribeDuration(BigInt(ms) * 1_000_000n);
      pollable.block();
      pollable[Symbol.dispose]();
    },
  };
}
