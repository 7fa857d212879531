/**
 * `npm run build:password-component`: compiles components/password-hashing/src/main.zig to a
 * wasm32-wasi core module (Zig), gives it its WIT type section and wraps it as a component with
 * WASI preview1's reactor adapter (wasm-tools; the adapter is jco's copy in node_modules). The
 * result, components/password-hashing/password-hashing.wasm, is committed, so a standalone build
 * needs only wac (to compose it) and wasmtime. `--check` rebuilds into a temporary directory and
 * fails when the bytes differ from the committed file (CI: the committed binary is what the
 * source builds to).
 *
 *   node scripts/password-component.ts [--check]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { PASSWORD_COMPONENT } from './wasmtime/compose.ts';
import { locateTool } from './wasmtime/tools.ts';

const root = join(import.meta.dirname, '..');
const SOURCE = join(root, 'components', 'password-hashing', 'src', 'main.zig');
const ADAPTER = join(root, 'node_modules', '@bytecodealliance', 'jco', 'lib', 'wasi_snapshot_preview1.reactor.wasm');
const WORLD = 'password-hashing-provider';

function run(command: string[], args: string[]): void {
  execFileSync(command[0]!, [...command.slice(1), ...args], { stdio: ['ignore', 'inherit', 'inherit'], cwd: root });
}

/** Builds the component into `out`. */
function buildInto(out: string, work: string): void {
  const zig = locateTool('zig');
  const wasmTools = locateTool('wasm-tools');
  const core = join(work, 'core.wasm');
  // Single-threaded: Argon2id lanes run one after another (p = 1 anyway); stripped: no debug names.
  run(zig, [
    'build-exe',
    SOURCE,
    '-target',
    'wasm32-wasi',
    '-fno-entry',
    '-rdynamic',
    '-mexec-model=reactor',
    '-O',
    'ReleaseFast',
    '-fsingle-threaded',
    '-fstrip',
    `-femit-bin=${core}`,
    `--cache-dir`,
    join(work, 'zig-cache'),
  ]);
  const embedded = join(work, 'embedded.wasm');
  run(wasmTools, ['component', 'embed', join(root, 'wit'), core, '--world', WORLD, '-o', embedded]);
  run(wasmTools, ['component', 'new', embedded, '--adapt', `wasi_snapshot_preview1=${ADAPTER}`, '-o', out]);
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { check: { type: 'boolean', default: false } } });
  const work = mkdtempSync(join(tmpdir(), 'password-component-'));
  try {
    const out = join(work, 'password-hashing.wasm');
    const started = performance.now();
    buildInto(out, work);
    const built = readFileSync(out);
    if (values.check) {
      if (!built.equals(readFileSync(PASSWORD_COMPONENT))) {
        console.error(`${PASSWORD_COMPONENT} differs from what its source builds to: run npm run build:password-component and commit the result`);
        process.exit(1);
      }
      console.log(`password component: the committed binary is what the source builds to (${built.byteLength} bytes)`);
    } else {
      renameSync(out, PASSWORD_COMPONENT);
      console.log(`password component ${((performance.now() - started) / 1000).toFixed(1)} s  ${built.byteLength} bytes -> ${PASSWORD_COMPONENT}`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
