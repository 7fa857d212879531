/**
 * `npm run backup -- --data-dir DIR --to FILE [--force]`: a consistent copy of the host's SQLite
 * database (`DIR/app.sqlite`) while a host serves writes, through SQLite's online backup API
 * (node:sqlite `backup()`), never a file copy: a copy of the file and its -wal taken while
 * commits land can be torn.
 *
 * The whole database is copied in one backup step, inside one read transaction: in WAL mode
 * writers go on meanwhile, and the copy is the database as of that transaction's start (a copy in
 * several steps would restart whenever the host commits in between, never finishing under load).
 * The copy is written beside FILE, switched to a single self-contained file (rollback journal),
 * checked, fsynced and renamed into place. An existing FILE is kept unless `--force`. The copy
 * holds every password hash, address and the device-cookie key: it is created mode 0600 (the
 * umask is set before anything is written, host/private-files.ts).
 *
 * Exit codes: 0 done, 1 failed (FILE untouched), 2 invalid options (one line on stderr).
 */
import { existsSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { backup, DatabaseSync } from 'node:sqlite';
import { commandArguments, exitWith } from './sqlite-backup/arguments.ts';
import { partialName, replaceDurably } from './sqlite-backup/durable-replace.ts';
import { checkProjectDatabase, NotProjectDatabase } from './sqlite-backup/project-database.ts';
import { createPrivateFiles } from '../host/private-files.ts';

const USAGE = `Usage: npm run backup -- --data-dir DIR --to FILE [--force]

  --data-dir DIR   the host's data directory (DATA_DIR; default ./data); DIR/app.sqlite is copied
  --to FILE        where the backup goes; an existing FILE is kept unless --force
  --force          replace an existing FILE`;

/** Pages per backup step: all of them, so the copy is one snapshot (see above). */
const ALL_PAGES = 2 ** 31 - 1;
/** How long the backup waits for a lock the host holds (it never needs a write lock). */
const BUSY_TIMEOUT_MS = 10_000;

function fail(code: number, message: string): never {
  return exitWith('backup', code, message);
}

createPrivateFiles();
const args = commandArguments('backup', USAGE, 'to', true);
if (!existsSync(args.database)) fail(2, `no database at ${args.database}: check --data-dir (DATA_DIR)`);
if (existsSync(args.file) && !args.force) fail(2, `${args.file} exists: pass --force to replace it`);
if (!existsSync(dirname(args.file)) || !statSync(dirname(args.file)).isDirectory()) fail(2, `the directory of --to ${args.file} does not exist`);

const started = performance.now();
const partial = partialName(args.file);
try {
  const source = new DatabaseSync(args.database, { timeout: BUSY_TIMEOUT_MS });
  let pages: number;
  try {
    pages = await backup(source, partial, { rate: ALL_PAGES });
  } finally {
    source.close();
  }
  // The copy keeps the source's WAL flag; a rollback-journal file is one file that opens anywhere
  // (read-only too). The host switches it back to WAL when it opens it after a restore.
  const copy = new DatabaseSync(partial);
  try {
    copy.exec('PRAGMA journal_mode = DELETE');
  } finally {
    copy.close();
  }
  const checked = checkProjectDatabase(partial);
  replaceDurably(partial, args.file);
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `backup: copied ${args.database} to ${args.file}: ${pages} pages, ${statSync(args.file).size} bytes, ` +
      `schema version ${checked.schemaVersion}, ${checked.events} events, in ${seconds.toFixed(2)} s`,
  );
} catch (error) {
  rmSync(partial, { force: true });
  if (error instanceof NotProjectDatabase) fail(2, `${args.database} is not a database of this project: ${error.message}`);
  fail(1, `failed, ${args.file} untouched: ${error instanceof Error ? error.message : String(error)}`);
}
