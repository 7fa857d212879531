/**
 * `npm run dev [-- <host options>]`: the development loop (scripts/dev/runner.ts). Takes the
 * host's options (`npm run dev -- --port 4000 --data-dir ./dev-data`); stops on Ctrl-C.
 * docs/development.md says what it rebuilds for which change and how long that takes.
 */
import { join } from 'node:path';
import { ConfigError } from '../host/config.ts';
import { helpForArguments } from '../host/help.ts';
import { loadDotEnv } from '../host/dotenv.ts';
import { checkDataDir, listenFailure } from '../host/start-errors.ts';
import { devArguments } from './dev/arguments.ts';
import { startDev } from './dev/runner.ts';

const root = join(import.meta.dirname, '..');
const argv = process.argv.slice(2);
const print = (line: string) => process.stdout.write(`${line}\n`);

if (argv.includes('--help') || argv.includes('-h')) {
  print('npm run dev -- [options]: builds, serves on --port, rebuilds and restarts on every save, reloads open pages.');
  print("It takes the host's options (below); the host runs behind it on a port of its own. See docs/development.md.\n");
  print(helpForArguments(argv, process.env));
  process.exit(0);
}

const fail = (error: ConfigError): never => {
  process.stderr.write(`error: ${error.message}\n`);
  process.exit(2);
};

loadDotEnv();
let args: ReturnType<typeof devArguments> | undefined;
try {
  args = devArguments(argv, process.env);
  checkDataDir(args.config);
} catch (error) {
  if (error instanceof ConfigError) fail(error);
  throw error;
}
const dev = await startDev(root, args, print).catch((error: unknown) => {
  const config = listenFailure(error, args.config);
  if (config) fail(config);
  throw error;
});
print(`dev: http://${args.config.host}:${dev.front.port}, watching src/ static/ wit/ host/ (Ctrl-C stops)`);

let stopping = false;
const stop = () => {
  if (stopping) process.exit(1); // a second Ctrl-C: do not wait
  stopping = true;
  print('dev: stopping');
  void dev.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
