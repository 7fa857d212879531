/**
 * The data directory holds secrets: every password hash and address, the device-cookie key,
 * sessions, mail links' records. Everything the host and the tools beside it create there (the
 * directory itself, SQLite's database, -wal and -shm files, the file store of `wasmtime serve`,
 * backups) is for the service's own user alone: directories 0700, files 0600, by setting the
 * process's umask before anything is created (OWASP ASVS 4.0 §14.1.x / CWE-276: files created with
 * the default 0644 are readable by every local user). A directory that already exists wider is the
 * operator's to fix: the host says so at start (`data_dir_not_private`) and does not change it.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { HostLogger } from './log.ts';

/** Group and others get nothing: directories 0700, files 0600. */
export const PRIVATE_UMASK = 0o077;

/** Makes every file and directory this process creates from now on private (its children inherit it). */
export function createPrivateFiles(): void {
  process.umask(PRIVATE_UMASK);
}

/** The store files whose mode is checked beside the directory's. */
const STORE_FILES = ['app.sqlite', 'app.sqlite-wal', 'app.sqlite-shm'];

/** `dir` and its store files that group or others may read, write or enter, with their modes (octal). */
export function widerThanPrivate(dir: string): Array<{ path: string; mode: string }> {
  const paths = [dir, ...STORE_FILES.map((name) => join(dir, name))].filter((path) => existsSync(path));
  return paths.flatMap((path) => {
    const mode = statSync(path).mode & 0o777;
    return (mode & PRIVATE_UMASK) === 0 ? [] : [{ path, mode: mode.toString(8).padStart(4, '0') }];
  });
}

/** Logs `data_dir_not_private` when the data directory or its store files are open to other users. */
export function warnIfNotPrivate(dir: string, logger: HostLogger): void {
  const wide = widerThanPrivate(dir);
  if (wide.length === 0) return;
  logger.log('warn', `the data directory ${dir} or its store files are open to other users of this machine: chmod 700 the directory and 600 its files`, {
    code: 'data_dir_not_private',
    paths: wide.map((w) => `${w.path} ${w.mode}`),
  });
}
