/**
 * `npm run dev` in a copy of the project, for the dev loop's test and its benchmark: they edit
 * the copy's sources, never this checkout's. The copy links node_modules and starts with this
 * checkout's hosted build, its stamps and its splice cache, so the dev runner's first build finds
 * everything up to date (as after `npm run build`).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lineSplitter } from '../scripts/wasmtime/output.ts';
import { freePort, ROOT, tempDataDir } from './host-process.ts';

/** What the dev runner and the build read. */
const COPIED = ['src', 'static', 'wit', 'host', 'scripts', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.base.json'];
const BUILD_COPIED = ['hosted', '.stamps', '.cache'];

export function copyProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'dev-loop-'));
  for (const entry of COPIED) cpSync(join(ROOT, entry), join(dir, entry), { recursive: true });
  for (const entry of BUILD_COPIED) {
    if (existsSync(join(ROOT, 'build', entry))) cpSync(join(ROOT, 'build', entry), join(dir, 'build', entry), { recursive: true });
  }
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

/** The handler the dev loop's test and benchmark edit: GET /api/health's answer. */
const HEALTH_HANDLER = "c.json({ status: 'ok',";

export interface HealthHandler {
  /** The file that holds it, relative to the copy (it moves as the code is reorganised). */
  path: string;
  original: string;
}

/** Finds the one source file of the copy that holds the health handler. */
export function healthHandler(root: string): HealthHandler {
  const found = readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
    .filter((file) => readFileSync(join(root, 'src', file), 'utf8').includes(HEALTH_HANDLER));
  if (found.length !== 1) throw new Error(`${found.length} files of src/ hold ${HEALTH_HANDLER}: update HEALTH_HANDLER in harness/dev-process.ts`);
  const path = join('src', found[0]!);
  return { path, original: readFileSync(join(root, path), 'utf8') };
}

/** Makes the handler answer `{ status: 'ok', edit: token }` (from its original text each time); `undefined` restores it. */
export function editHealthHandler(root: string, handler: HealthHandler, token: string | undefined): void {
  const text = token === undefined ? handler.original : handler.original.replace(HEALTH_HANDLER, `c.json({ status: 'ok', edit: '${token}',`);
  writeFileSync(join(root, handler.path), text);
}

/** GET /api/health's `edit` (undefined when the handler is the original or the host does not answer). */
export async function healthEdit(url: string): Promise<string | undefined> {
  try {
    return ((await (await fetch(`${url}/api/health`)).json()) as { edit?: string }).edit;
  } catch {
    return undefined;
  }
}

export interface DevProcess {
  readonly url: string;
  readonly root: string;
  readonly child: ChildProcess;
  /** Every stdout/stderr line so far. */
  readonly output: string[];
  /** The first line at index `from` or later that matches; waits for it. */
  waitForLine(match: RegExp, from?: number, timeoutMs?: number): Promise<{ line: string; index: number }>;
  /** Ctrl-C (SIGINT to its process group, as a terminal sends it); resolves once npm has exited. */
  stop(): Promise<void>;
}

/** The live processes that run in `root` or name it on their command line (npm, the dev runner, its build process, the host). */
export function processesUnder(root: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readlinkSync(`/proc/${entry}/cwd`).startsWith(root) || readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(root)) found.push(Number(entry));
    } catch {
      // gone while we looked
    }
  }
  return found;
}

export async function startDev(root: string, options: { args?: string[]; timeoutMs?: number } = {}): Promise<DevProcess> {
  const port = await freePort();
  const dataDir = tempDataDir('dev-loop-data-');
  const child = spawn('npm', ['run', 'dev', '--', '--port', String(port), '--data-dir', dataDir, ...(options.args ?? [])], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const output: string[] = [];
  const waiters = new Set<() => void>();
  const collect = () =>
    lineSplitter((line) => {
      output.push(line);
      for (const waiter of waiters) waiter();
    });
  child.stdout!.on('data', collect());
  child.stderr!.on('data', collect());
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const waitForLine = (match: RegExp, from = 0, timeoutMs = options.timeoutMs ?? 180_000) =>
    new Promise<{ line: string; index: number }>((resolve, reject) => {
      const check = () => {
        const index = output.findIndex((line, i) => i >= from && match.test(line));
        if (index < 0) return;
        finish();
        resolve({ line: output[index]!, index });
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`npm run dev printed no line matching ${match} within ${timeoutMs} ms:\n${output.slice(from).join('\n')}`));
      }, timeoutMs);
      const finish = () => {
        waiters.delete(check);
        clearTimeout(timer);
      };
      waiters.add(check);
      check();
    });

  const dev: DevProcess = {
    url: `http://127.0.0.1:${port}`,
    root,
    child,
    output,
    waitForLine,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGINT');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  try {
    await waitForLine(/^dev: the host serves /);
  } catch (error) {
    await dev.stop();
    throw error;
  }
  return dev;
}
