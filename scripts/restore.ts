/**
 * `npm run restore -- --data-dir DIR --from FILE`: replaces the host's SQLite database
 * (`DIR/app.sqlite`) with a backup made by `npm run backup`.
 *
 * Refuses while a host runs on DIR (the pid files hosts keep in `DIR/running-hosts/`): replacing
 * the file under an open connection would leave that host writing to the old, unlinked file.
 * Refuses a FILE that is not a database of this project or has a -wal beside it (a live database
 * or a file copy, not a backup). FILE is copied beside the database, checked, fsynced and renamed
 * over it; the old database's -wal and -shm are removed first, since a -wal left beside the new
 * file would be replayed into it. The restored database is mode 0600 whatever the backup's mode
 * (a copy keeps its source's), in a directory created 0700 (host/private-files.ts).
 *
 * Exit codes: 0 done, 1 failed, 2 refused or invalid options (one line on stderr; nothing changed).
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { createPrivateFiles } from '../host/private-files.ts';
import { runningHosts } from '../host/storage/sqlite/running-hosts.ts';
import { commandArguments, exitWith } from './sqlite-backup/arguments.ts';
import { partialName, replaceDurably } from './sqlite-backup/durable-replace.ts';
import { checkProjectDatabase, NotProjectDatabase, type ProjectDatabase } from './sqlite-backup/project-database.ts';

const USAGE = `Usage: npm run restore -- --data-dir DIR --from FILE

  --data-dir DIR   the host's data directory (DATA_DIR; default ./data); DIR/app.sqlite is replaced
  --from FILE      a backup made by npm run backup
Stop every host using DIR first.`;

/** The files SQLite keeps beside a database while it is (or was, until a crash) open. */
const SIDE_FILES = ['-wal', '-shm', '-journal'];

function fail(code: number, message: string): never {
  return exitWith('restore', code, message);
}

function refuseRunningHosts(dataDir: string): void {
  const pids = runningHosts(dataDir);
  if (pids.length > 0) fail(2, `refusing: a host (pid ${pids.join(', ')}) is running on ${dataDir}; stop it first, nothing was changed`);
}

function removeWithSideFiles(path: string): void {
  for (const suffix of ['', ...SIDE_FILES]) rmSync(`${path}${suffix}`, { force: true });
}

createPrivateFiles();
const args = commandArguments('restore', USAGE, 'from', false);
if (!existsSync(args.file) || !statSync(args.file).isFile()) fail(2, `--from ${args.file} is not a file`);
if (existsSync(`${args.file}-wal`) && statSync(`${args.file}-wal`).size > 0) {
  fail(2, `${args.file} has a write-ahead log beside it: it is a live database or a file copy, not a backup made by npm run backup`);
}
refuseRunningHosts(args.dataDir);

const started = performance.now();
const partial = partialName(args.database);
let checked: ProjectDatabase;
try {
  mkdirSync(args.dataDir, { recursive: true, mode: 0o700 });
  copyFileSync(args.file, partial);
  chmodSync(partial, 0o600);
  checked = checkProjectDatabase(partial);
} catch (error) {
  removeWithSideFiles(partial);
  if (error instanceof NotProjectDatabase) fail(2, `refusing ${args.file}: ${error.message}; nothing was changed`);
  fail(1, `failed, nothing was changed: ${error instanceof Error ? error.message : String(error)}`);
}
try {
  // A host may have started while the copy was checked.
  refuseRunningHosts(args.dataDir);
  for (const suffix of SIDE_FILES) rmSync(`${args.database}${suffix}`, { force: true });
  replaceDurably(partial, args.database);
} catch (error) {
  removeWithSideFiles(partial);
  fail(1, `failed: ${error instanceof Error ? error.message : String(error)}`);
}
const seconds = (performance.now() - started) / 1000;
console.log(
  `restore: restored ${args.file} into ${args.database}: schema version ${checked.schemaVersion}, ${checked.events} events, ` +
    `${statSync(args.database).size} bytes, in ${seconds.toFixed(2)} s`,
);
