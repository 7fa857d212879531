/**
 * The options of `npm run backup` and `npm run restore`, checked with valibot. The data
 * directory comes from `--data-dir`, else DATA_DIR (also from `.env`), else `./data`, as for the
 * host, so both commands find the database the host with the same settings uses.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import * as v from 'valibot';
import { plainArgumentError } from '../../host/argument-errors.ts';
import { loadDotEnv } from '../../host/dotenv.ts';

/** The database file the host keeps in its data directory (host/storage/open.ts). */
export const DATABASE_FILE = 'app.sqlite';

/** An option the operator fixes: the command prints it as one line and exits 2. */
export class ArgumentError extends Error {
  override readonly name = 'ArgumentError';
}

const nonEmpty = (what: string) => v.pipe(v.string(`${what} needs a value`), v.nonEmpty(`${what} needs a value`));

export interface StoreFileArguments {
  /** `<data-dir>/app.sqlite` */
  readonly database: string;
  readonly dataDir: string;
  /** The backup file written (backup) or read (restore). */
  readonly file: string;
  readonly force: boolean;
}

/** `fileOption` is `to` for backup, `from` for restore; `--force` exists only where `allowForce`. */
export function parseStoreFileArguments(argv: string[], env: NodeJS.ProcessEnv, fileOption: 'to' | 'from', allowForce: boolean): StoreFileArguments | 'help' {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        'data-dir': { type: 'string' },
        [fileOption]: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        ...(allowForce ? { force: { type: 'boolean' } } : {}),
      },
    }).values;
  } catch (error) {
    // Without the host's example value (a port), which means nothing here.
    throw new ArgumentError(plainArgumentError(error).replace(/, as in .*$/, ''));
  }
  if (values['help'] === true) return 'help';
  const schema = v.object({
    dataDir: nonEmpty('--data-dir (DATA_DIR)'),
    file: v.pipe(v.string(`--${fileOption} FILE is required`), v.nonEmpty(`--${fileOption} needs a value`)),
    force: v.boolean(),
  });
  const parsed = v.safeParse(schema, {
    dataDir: values['data-dir'] ?? env['DATA_DIR'] ?? './data',
    file: values[fileOption],
    force: values['force'] ?? false,
  });
  if (!parsed.success) throw new ArgumentError(parsed.issues[0].message);
  return { ...parsed.output, database: join(parsed.output.dataDir, DATABASE_FILE) };
}

/** Ends the command with one line on stderr, prefixed with its name. */
export function exitWith(command: 'backup' | 'restore', code: number, message: string): never {
  process.stderr.write(`${command}: ${message}\n`);
  process.exit(code);
}

/** The command's arguments from argv and the environment (`.env` read first); prints `usage` and exits 0 on --help, exits 2 on bad ones. */
export function commandArguments(command: 'backup' | 'restore', usage: string, fileOption: 'to' | 'from', allowForce: boolean): StoreFileArguments {
  loadDotEnv();
  let args: StoreFileArguments | 'help';
  try {
    args = parseStoreFileArguments(process.argv.slice(2), process.env, fileOption, allowForce);
  } catch (error) {
    if (error instanceof ArgumentError) exitWith(command, 2, `${error.message}; run with --help for the options`);
    throw error;
  }
  if (args === 'help') {
    console.log(usage);
    process.exit(0);
  }
  return args;
}
