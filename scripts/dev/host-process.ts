/**
 * The Node host behind the dev runner, as `npm start` runs it (host/main.ts, the host's options,
 * the same data directory), on a port of its own that stays the same across restarts. It starts
 * through host-launcher.ts, and one launcher is kept loaded for the next restart. Its lines go to
 * the terminal; the last few are kept to say why it stopped or could not start.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { lineSplitter } from '../wasmtime/output.ts';
import type { DevArguments } from './arguments.ts';
import type { ToLauncher } from './host-launcher.ts';

export type HostStart = { ok: true; port: number; ms: number } | { ok: false; message: string };

/** Lines kept to explain a failed start or an exit. */
const TAIL_LINES = 40;
/** The longest a start may take on a loaded machine (the host itself starts in 1-5 s). */
const START_TIMEOUT_MS = 120_000;
/** After SIGTERM the host drains for its grace period (--shutdown-grace-ms), then gets this long. */
const STOP_SLACK_MS = 3_000;

/** A port nothing listens on, from the kernel. */
function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** A launcher process: its lines are kept until it becomes the host, then printed as they come. */
class Launched {
  readonly child: ChildProcess;
  readonly tail: string[] = [];
  readonly exited: Promise<void>;
  #printing = false;
  #onLine: ((line: string) => void) | undefined;

  constructor(root: string) {
    // Its own process group: a Ctrl-C in the terminal reaches the dev runner only, which stops the host once.
    this.child = fork(join(root, 'scripts', 'dev', 'host-launcher.ts'), [], { stdio: ['ignore', 'pipe', 'pipe', 'ipc'], detached: true });
    this.exited = new Promise((resolve) => this.child.once('exit', () => resolve()));
    const keep = (write: (text: string) => boolean) =>
      lineSplitter((line) => {
        this.tail.push(line);
        if (this.tail.length > TAIL_LINES) this.tail.shift();
        if (this.#printing) write(`${line}\n`);
        this.#onLine?.(line);
      });
    this.child.stdout!.on(
      'data',
      keep((text) => process.stdout.write(text)),
    );
    this.child.stderr!.on(
      'data',
      keep((text) => process.stderr.write(text)),
    );
    // Should the dev runner end without stopping it (an uncaught error), the host ends with it.
    const orphaned = () => this.child.kill('SIGKILL');
    process.once('exit', orphaned);
    this.child.once('exit', () => process.off('exit', orphaned));
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** From now on its lines are printed (those kept so far first) and passed to `onLine`. */
  attach(onLine: (line: string) => void): void {
    for (const line of this.tail) process.stdout.write(`${line}\n`);
    this.#printing = true;
    this.#onLine = onLine;
  }
}

export class DevHost {
  readonly #root: string;
  readonly #args: DevArguments;
  /** Called when the host exits while it should be serving, with its last lines. */
  readonly #onExit: (message: string) => void;
  #host: Launched | undefined;
  #spare: Launched | undefined;
  #port: number | undefined;
  #stopping = false;

  constructor(root: string, args: DevArguments, onExit: (message: string) => void) {
    this.#root = root;
    this.#args = args;
    this.#onExit = onExit;
  }

  get address(): { host: string; port: number } | undefined {
    return this.#host?.running && this.#port !== undefined ? { host: this.#args.connectHost, port: this.#port } : undefined;
  }

  /** Loads a launcher for the next start (in the background). */
  prepare(): void {
    this.#spare ??= new Launched(this.#root);
  }

  /** Drops the loaded launcher: host/ changed, so its modules are stale. */
  async discardSpare(): Promise<void> {
    const spare = this.#spare;
    this.#spare = undefined;
    if (!spare) return;
    spare.child.kill('SIGKILL');
    await spare.exited;
  }

  /** Starts the host (stop it first); on the same port as before, or a new one if that is taken. */
  async start(): Promise<HostStart> {
    this.#port ??= await freePort(this.#args.connectHost);
    const first = await this.#startOn(this.#port);
    if (first.ok || !/already in use/.test(first.message)) return first;
    this.#port = await freePort(this.#args.connectHost);
    return this.#startOn(this.#port);
  }

  async #startOn(port: number): Promise<HostStart> {
    const started = performance.now();
    let launched = this.#spare;
    this.#spare = undefined;
    if (!launched?.running) launched = new Launched(this.#root);
    this.#host = launched;
    this.#stopping = false;
    const host = launched;
    return new Promise<HostStart>((resolve) => {
      let listening = false;
      const timer = setTimeout(() => {
        resolve({ ok: false, message: `the host did not listen within ${START_TIMEOUT_MS / 1000} s:\n${host.tail.join('\n')}` });
        host.child.kill('SIGKILL');
      }, START_TIMEOUT_MS);
      host.attach((line) => {
        if (listening || !line.includes('"code":"host_listening"')) return;
        listening = true;
        clearTimeout(timer);
        resolve({ ok: true, port, ms: performance.now() - started });
      });
      void host.exited.then(() => {
        clearTimeout(timer);
        const { exitCode, signalCode } = host.child;
        const message = `the host exited (${signalCode ?? `code ${exitCode}`}):\n${host.tail.join('\n')}`;
        if (!listening) resolve({ ok: false, message });
        else if (this.#host === host && !this.#stopping) this.#onExit(message);
      });
      // cwd as for `npm start`: a relative --data-dir means the same directory.
      if (host.running) host.child.send({ kind: 'start', args: this.#args.hostArgs(port) } satisfies ToLauncher);
    });
  }

  /** SIGTERM, as an operator stops it; SIGKILL if it is still running after its grace period. */
  async stop(): Promise<void> {
    const host = this.#host;
    if (!host?.running) return;
    this.#stopping = true;
    host.child.kill('SIGTERM');
    const timer = setTimeout(() => host.child.kill('SIGKILL'), this.#args.config.shutdownGraceMs + STOP_SLACK_MS);
    await host.exited;
    clearTimeout(timer);
  }

  /** Stops the host and the loaded launcher. */
  async close(): Promise<void> {
    await this.stop();
    await this.discardSpare();
  }
}
