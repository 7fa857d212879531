/**
 * Builds the standalone component when its sources changed (scripts/build.ts skips unchanged
 * steps; a release carries it built) and compiles it ahead of time with `wasmtime compile` into a cached .cwasm, keyed by the
 * component's hash and the wasmtime version: starting from the .cwasm takes under a second where
 * compiling the 14 MB component at every start takes a minute on 2 cores.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');
const OUT = join(ROOT, 'build', 'standalone');
export const COMPONENT = join(OUT, 'component.wasm');
/** A checkout builds the component before serving it; a release (npm run release) carries it built and has no build script. */
export const CAN_BUILD = existsSync(join(ROOT, 'scripts', 'build.ts'));

/**
 * Where the precompiled component goes: beside the component in a checkout; in a release, whose
 * directory is read-only to its service (/opt, ProtectSystem=strict), the user's cache directory
 * (systemd's CacheDirectory=, else XDG_CACHE_HOME or ~/.cache).
 */
function precompiledDir(env: NodeJS.ProcessEnv = process.env): string {
  if (CAN_BUILD) return OUT;
  return env['CACHE_DIRECTORY'] ?? join(env['XDG_CACHE_HOME'] || join(homedir(), '.cache'), 'wasi-counter-auth');
}
export const PRECOMPILED = join(precompiledDir(), 'component.cwasm');

export function wasmtimeVersion(wasmtime: string): string {
  return execFileSync(wasmtime, ['--version'], { encoding: 'utf8' }).trim();
}

const LOCK = join(dirname(PRECOMPILED), '.prepare.lock');
const LOCK_STALE_MS = 15 * 60_000;

/**
 * Runs `work` holding a lock file, so test files (or a test run and a launcher) preparing at the
 * same time build and compile once instead of overwriting each other's outputs.
 */
function exclusively<T>(work: () => T): T {
  mkdirSync(dirname(PRECOMPILED), { recursive: true });
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      closeSync(openSync(LOCK, 'wx'));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      try {
        if (Date.now() - statSync(LOCK).mtimeMs > LOCK_STALE_MS) rmSync(LOCK, { force: true }); // left by a killed run
      } catch {
        // released meanwhile
      }
      Atomics.wait(pause, 0, 0, 200);
    }
  }
  try {
    return work();
  } finally {
    rmSync(LOCK, { force: true });
  }
}

/** Returns the path to serve: the up-to-date .cwasm. Logs each step to `log`. */
export function prepareStandalone(options: { wasmtime?: string; build?: boolean; log?: (line: string) => void } = {}): string {
  return exclusively(() => prepareUnlocked(options));
}

function prepareUnlocked(options: { wasmtime?: string; build?: boolean; log?: (line: string) => void }): string {
  const wasmtime = options.wasmtime ?? 'wasmtime';
  const log = options.log ?? ((line: string) => console.error(line));
  if (options.build !== false && CAN_BUILD) {
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.ts'), '--variant', 'standalone'], { stdio: ['ignore', 'inherit', 'inherit'], cwd: ROOT });
  }
  if (!existsSync(COMPONENT)) throw new Error(`${COMPONENT} is missing: ${CAN_BUILD ? 'run npm run build -- --variant standalone' : 'this release was made --without-wasmtime'}`);
  const key = createHash('sha256').update(readFileSync(COMPONENT)).update(wasmtimeVersion(wasmtime)).digest('hex');
  const stamp = `${PRECOMPILED}.sha256`;
  if (existsSync(PRECOMPILED) && existsSync(stamp) && readFileSync(stamp, 'utf8') === key) return PRECOMPILED;
  const started = performance.now();
  // Compile to a temporary name and rename: a concurrent starter never runs a half-written .cwasm.
  const temp = `${PRECOMPILED}.${process.pid}.tmp`;
  execFileSync(wasmtime, ['compile', COMPONENT, '-o', temp], { stdio: ['ignore', 'inherit', 'inherit'] });
  renameSync(temp, PRECOMPILED);
  writeFileSync(stamp, key);
  log(`  standalone: wasmtime compile ${((performance.now() - started) / 1000).toFixed(1).padStart(5)} s  ${PRECOMPILED}`);
  return PRECOMPILED;
}
