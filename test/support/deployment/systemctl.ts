/**
 * A stand-in for `systemctl` where the test machine has no systemd as PID 1: it starts a unit as
 * systemd does and stops it the way systemd would, so that docs/deployment.md's commands run as
 * written. Units live under $DEPLOY_ROOT/etc/systemd/system/; the machine's paths (/opt, /etc,
 * /var) are under $DEPLOY_ROOT (test/support/deployment/server.ts).
 *
 * Starting a unit: its ExecStart= with exactly the environment systemd gives a service (systemd's
 * default PATH, HOME, STATE_DIRECTORY, then Environment=, then EnvironmentFile=, which wins), its
 * StateDirectory= made with StateDirectoryMode=, output appended to the unit's journal file. A
 * supervisor process waits for the service and records its exit status. Stopping: KillSignal=
 * (default SIGTERM), then wait up to TimeoutStopSec= (default 90 s); a service still running then
 * is killed and the stop fails (exit 1), as does one that exited other than 0. User= is not
 * switched to (the test runs as its own user). A unit's `X-TestReadyLine=` (a key systemd ignores)
 * makes start wait for that text in its output, as systemd waits for a forking daemon.
 *
 *   systemctl daemon-reload | enable --now UNIT | start UNIT | stop UNIT | restart UNIT | reload UNIT
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { journalOf, SYSTEMD_PATH } from './units.ts';

const ROOT = process.env['DEPLOY_ROOT'] ?? '';
if (!ROOT) throw new Error('DEPLOY_ROOT is not set');

/** A path of the machine, under the test's root. */
const onMachine = (path: string) => (/^\/(opt|etc|var|run)\//.test(path) ? join(ROOT, path) : path);
/** Every machine path inside a value (DATA_DIR=/var/lib/x). */
const mapPaths = (value: string) => value.replace(/(^|[\s=])\/(opt|etc|var|run)\//g, (_, before: string, top: string) => `${before}${ROOT}/${top}/`);

interface Unit {
  name: string;
  service: Map<string, string[]>;
}

function readUnit(name: string): Unit {
  const path = join(ROOT, 'etc', 'systemd', 'system', `${name}.service`);
  if (!existsSync(path)) fail(`Unit ${name}.service not found.`);
  const service = new Map<string, string[]>();
  let section = '';
  for (const raw of readFileSync(path, 'utf8').split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    if (line.startsWith('[')) {
      section = line;
      continue;
    }
    if (section !== '[Service]') continue;
    const at = line.indexOf('=');
    const key = line.slice(0, at);
    service.set(key, [...(service.get(key) ?? []), line.slice(at + 1)]);
  }
  return { name, service };
}

const last = (unit: Unit, key: string) => unit.service.get(key)?.at(-1);

/** `KEY=VALUE` lines; quotes around a value removed (systemd.exec(5), EnvironmentFile=). */
function environmentFile(path: string): Record<string, string> {
  const entries: Record<string, string> = {};
  for (const raw of readFileSync(path, 'utf8').split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const at = line.indexOf('=');
    entries[line.slice(0, at).trim()] = line
      .slice(at + 1)
      .trim()
      .replace(/^"(.*)"$|^'(.*)'$/, '$1$2');
  }
  return entries;
}

/** A command line split into words; double or single quotes group a word. */
function words(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
}

const runDir = (name: string) => join(ROOT, 'run', 'units', name);

function fail(message: string): never {
  process.stderr.write(`systemctl: ${message}\n`);
  process.exit(1);
}

function running(name: string): number | undefined {
  const dir = runDir(name);
  if (!existsSync(join(dir, 'pid')) || existsSync(join(dir, 'exit'))) return undefined;
  return Number(readFileSync(join(dir, 'pid'), 'utf8'));
}

async function sleep(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

async function start(name: string): Promise<void> {
  if (running(name) !== undefined) return;
  const unit = readUnit(name);
  const execStart = last(unit, 'ExecStart');
  if (!execStart) fail(`${name}.service has no ExecStart=`);
  const env: Record<string, string> = { PATH: SYSTEMD_PATH, LANG: 'C.UTF-8' };
  const state = last(unit, 'StateDirectory');
  if (state) {
    const dir = join(ROOT, 'var', 'lib', state);
    mkdirSync(dir, { recursive: true });
    chmodSync(dir, Number.parseInt(last(unit, 'StateDirectoryMode') ?? '0755', 8));
    env['STATE_DIRECTORY'] = dir;
    env['HOME'] = dir;
  }
  for (const assignment of unit.service.get('Environment') ?? []) {
    for (const word of words(assignment)) {
      const at = word.indexOf('=');
      env[word.slice(0, at)] = mapPaths(word.slice(at + 1));
    }
  }
  for (const file of unit.service.get('EnvironmentFile') ?? []) Object.assign(env, environmentFile(onMachine(file.replace(/^-/, ''))));
  const dir = runDir(name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const [command, ...args] = words(execStart).map((word, i) => (i === 0 ? onMachine(word) : mapPaths(word)));
  writeFileSync(join(dir, 'start.json'), JSON.stringify({ command, args, env }));
  mkdirSync(join(ROOT, 'var', 'log', 'journal'), { recursive: true });
  const supervisor = spawn(process.execPath, [import.meta.filename, '--supervise', name], { detached: true, stdio: 'ignore', env: process.env });
  supervisor.unref();
  // Type=exec: started once the process runs; with X-TestReadyLine=, once it says so.
  const ready = last(unit, 'X-TestReadyLine');
  for (let waited = 0; ; waited += 50) {
    if (existsSync(join(dir, 'exit'))) fail(`${name}.service exited at start: ${readFileSync(join(dir, 'exit'), 'utf8')}`);
    const journal = existsSync(journalOf(ROOT, name)) ? readFileSync(journalOf(ROOT, name), 'utf8') : '';
    if (existsSync(join(dir, 'pid')) && (ready === undefined || journal.includes(ready))) return;
    if (waited > 60_000) fail(`${name}.service did not start within 60 s`);
    await sleep(50);
  }
}

/** The supervisor: runs the service, records its pid, then how it exited. */
function supervise(name: string): void {
  const dir = runDir(name);
  const { command, args, env } = JSON.parse(readFileSync(join(dir, 'start.json'), 'utf8')) as { command: string; args: string[]; env: Record<string, string> };
  const journal = openSync(journalOf(ROOT, name), 'a');
  const child = spawn(command, args, { env, stdio: ['ignore', journal, journal], cwd: '/' });
  child.once('spawn', () => writeFileSync(join(dir, 'pid'), String(child.pid)));
  child.once('error', (error) => writeFileSync(join(dir, 'exit'), JSON.stringify({ code: null, signal: null, error: error.message })));
  child.once('exit', (code, signal) => writeFileSync(join(dir, 'exit'), JSON.stringify({ code, signal })));
}

async function stop(name: string): Promise<void> {
  const pid = running(name);
  if (pid === undefined) return;
  const unit = readUnit(name);
  const signal = (last(unit, 'KillSignal') ?? 'SIGTERM') as NodeJS.Signals;
  const timeoutMs = Number(last(unit, 'TimeoutStopSec') ?? '90') * 1000;
  process.kill(pid, signal);
  const exitFile = join(runDir(name), 'exit');
  for (let waited = 0; !existsSync(exitFile); waited += 50) {
    if (waited > timeoutMs) {
      process.kill(pid, 'SIGKILL');
      fail(`${name}.service did not stop within TimeoutStopSec=${timeoutMs / 1000}: killed`);
    }
    await sleep(50);
  }
  const exit = JSON.parse(readFileSync(exitFile, 'utf8')) as { code: number | null; signal: string | null };
  // systemd counts exit 0, and death by the signal it sent, as a clean stop.
  if (exit.code !== 0 && exit.signal !== signal) fail(`${name}.service stopped with ${JSON.stringify(exit)}`);
}

async function reload(name: string): Promise<void> {
  const pid = running(name);
  if (pid === undefined) return start(name);
  const reloadCommand = last(readUnit(name), 'ExecReload');
  if (!reloadCommand) fail(`${name}.service has no ExecReload=`);
  const [command, ...args] = words(reloadCommand.replaceAll('$MAINPID', String(pid))).map((word, i) => (i === 0 ? onMachine(word) : mapPaths(word)));
  await new Promise<void>((resolve) => spawn(command!, args, { stdio: 'inherit' }).once('exit', () => resolve()));
}

const [verb, ...rest] = process.argv.slice(2);
const names = rest.filter((word) => !word.startsWith('-')).map((word) => word.replace(/\.service$/, ''));
switch (verb) {
  case '--supervise':
    supervise(names[0]!);
    break;
  case 'daemon-reload':
    break;
  case 'enable':
    if (rest.includes('--now')) for (const name of names) await start(name);
    break;
  case 'start':
    for (const name of names) await start(name);
    break;
  case 'stop':
    for (const name of names) await stop(name);
    break;
  case 'restart':
    for (const name of names) {
      await stop(name);
      await start(name);
    }
    break;
  case 'reload':
    for (const name of names) await reload(name);
    break;
  case 'is-active':
    process.exit(names.every((name) => running(name) !== undefined) ? 0 : 3);
    break;
  default:
    fail(`the test's stand-in does not do "${verb}"`);
}
