/**
 * `npm run serve:wasmtime`: runs the standalone component under `wasmtime serve` on
 * 127.0.0.1:3000 with its file store in ./data/wasmtime. Refuses gRPC (and any invalid option)
 * with exit code 2 before building or listening; builds and precompiles only when needed;
 * forwards SIGINT/SIGTERM to wasmtime, kills it if requests (live-update streams) still hold it
 * after a second (scripts/wasmtime/stop.ts), and exits with its code.
 *
 *   node scripts/serve-wasmtime.ts [--port 3000] [--host 127.0.0.1] [--data-dir ./data/wasmtime]
 *                                  [--transport http] [--realtime polling|off] [--instance-reuse 128]
 */
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createPrivateFiles, warnIfNotPrivate } from '../host/private-files.ts';
import { helpText, LaunchError, loadLaunchConfig } from './wasmtime/options.ts';
import { guestLogLine, lineSplitter } from './wasmtime/output.ts';
import { prepareStandalone } from './wasmtime/prepare.ts';
import { wasmtimeServeArgs } from './wasmtime/serve-args.ts';
import { stopOnSignals, wasmtimeNotice } from './wasmtime/stop.ts';
import { locateTool, MissingTool } from './wasmtime/tools.ts';

const log = (level: string, msg: string, fields: Record<string, unknown> = {}) =>
  console.log(JSON.stringify({ ts: new Date().toISOString(), level, source: 'launcher', msg, ...fields }));

const argv = process.argv.slice(2);
if (argv.includes('--help')) {
  console.log(helpText());
  process.exit(0);
}

let config;
try {
  config = loadLaunchConfig(argv, process.env);
} catch (error) {
  if (!(error instanceof LaunchError)) throw error;
  log('error', error.message, { code: 'config_invalid' });
  process.exit(2);
}

// The outside tools, checked before anything is built: wasmtime runs the component, wac composes it.
let wasmtime: string;
try {
  wasmtime = locateTool('wasmtime')[0]!;
  locateTool('wac');
} catch (error) {
  if (!(error instanceof MissingTool)) throw error;
  log('error', error.message, { code: 'tool_missing', tool: error.tool });
  process.exit(1);
}
mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
warnIfNotPrivate(config.dataDir, { log: (level, msg, fields) => log(level, msg, fields) });
const component = prepareStandalone({ wasmtime, log: (line) => console.error(line) });
// After the build (its outputs keep the usual modes), before wasmtime starts: it inherits the
// umask, so every file of its store is created private (host/private-files.ts).
createPrivateFiles();
const child = spawn(wasmtime, wasmtimeServeArgs(config, component, process.env), { stdio: ['ignore', 'pipe', 'pipe'] });
child.stdout.on(
  'data',
  lineSplitter((line) => console.log(guestLogLine(line))),
);
child.stderr.on(
  'data',
  lineSplitter((line) => {
    const notice = wasmtimeNotice(line);
    if (notice) log(notice.level, notice.msg, { code: notice.code });
    else console.error(guestLogLine(line));
    if (line.startsWith('Serving HTTP on')) {
      log('info', `listening on http://${config.host}:${config.port} (wasmtime serve)`, { code: 'wasmtime_listening', pid: child.pid, dataDir: config.dataDir });
    }
  }),
);
const stop = stopOnSignals(child, log);
child.once('error', (error) => {
  log('error', `cannot run ${wasmtime}: ${error.message}`, { code: 'wasmtime_missing' });
  process.exit(1);
});
child.once('exit', (code, signal) => {
  // Asked to stop, any end is the expected one (a kill after the grace included): exit 0.
  log(code === 0 || stop.stopping ? 'info' : 'error', 'wasmtime exited', { code: 'wasmtime_exited', exitCode: code, signal });
  process.exit(stop.stopping ? 0 : (code ?? 1));
});
