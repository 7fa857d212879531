/**
 * `npm run release -- --out DIR [--tarball] [--without-wasmtime]`: a self-contained release in
 * DIR, what an operator copies to a server (docs/deployment.md). It runs with no network, no build
 * step and whatever Node the machine has (or none), from any directory:
 *
 *   bin/wasi-counter-auth       the launcher (scripts/release/launcher.sh): the host, or backup, restore, …
 *   runtime/                    the pinned Node 24 (the npm package `node`'s binary and licence)
 *   app/                        the host and the scripts the launcher runs (TypeScript, run by Node 24
 *                               as it is, without type annotations), the built component(s) and
 *                               the production dependencies (package-lock.json's non-dev packages)
 *   systemd/                    the service unit (scripts/release/wasi-counter-auth.service)
 *   README.md, .env.example, docs/{deployment,configuration,operating}.md, release.json
 *
 * `--tarball` also writes DIR.tar.gz, holding DIR's name as its one top-level directory. The
 * standalone component (`wasmtime serve`) is included unless `--without-wasmtime` (its build needs
 * wac, see docs/build.md). Prints what it wrote, its size and how long it took.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const ROOT = join(import.meta.dirname, '..');
const RELEASE_FILES = join(ROOT, 'scripts', 'release');

/** The launcher's commands besides serving (bin/wasi-counter-auth COMMAND): each is scripts/COMMAND.ts. */
export const RELEASE_COMMANDS = ['backup', 'restore', 'reset', 'mail-drain', 'serve-wasmtime'] as const;

/** Entry points whose sources (and everything they import) the release carries; the worker is loaded by URL, not imported. */
const ENTRIES = ['host/main.ts', 'host/workers/worker.ts', ...RELEASE_COMMANDS.map((command) => `scripts/${command}.ts`)];

const DOCS = ['deployment.md', 'configuration.md', 'operating.md'];

function fail(message: string): never {
  process.stderr.write(`release: ${message}\n`);
  process.exit(2);
}

const { values } = (() => {
  try {
    return parseArgs({
      options: { out: { type: 'string' }, tarball: { type: 'boolean', default: false }, 'without-wasmtime': { type: 'boolean', default: false }, help: { type: 'boolean' } },
      strict: true,
    });
  } catch (error) {
    return fail(`${error instanceof Error ? error.message : String(error)}; run with --help`);
  }
})();
if (values.help) {
  console.log('Usage: npm run release -- --out DIR [--tarball] [--without-wasmtime]\n\nWrites a self-contained release to DIR (replaced if it exists): see docs/deployment.md.');
  process.exit(0);
}
if (!values.out) fail('--out DIR is required: where the release is written (replaced if it exists)');
const out = resolve(values.out);
if (out === ROOT || ROOT.startsWith(`${out}/`)) fail('--out must not be the checkout or a directory holding it');
if (!process.version.startsWith('v24.')) fail(`run it with the pinned Node 24 (npm run release), not ${process.version}`);

const started = performance.now();
const withWasmtime = !values['without-wasmtime'];
execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.ts'), '--variant', withWasmtime ? 'all' : 'hosted'], { stdio: 'inherit', cwd: ROOT });

/** Every source file the entry points reach (esbuild follows the imports; nothing is bundled or written). */
async function sourceClosure(): Promise<string[]> {
  const result = await build({
    entryPoints: ENTRIES.map((entry) => join(ROOT, entry)),
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outdir: join(ROOT, 'build', '.release-closure'),
    logLevel: 'silent',
    // The component's glue is loaded at run time from build/ (host/guest/component.ts), not imported.
    external: ['*/component.js'],
  });
  return Object.keys(result.metafile.inputs)
    .map((input) => relative(ROOT, resolve(ROOT, input)))
    .filter((path) => !path.startsWith('node_modules/') && !path.startsWith('..'))
    .sort();
}

/** package-lock.json's packages that `npm install --omit=dev` would install, as installed here. */
function productionPackages(): string[] {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean; devOptional?: boolean; optional?: boolean }> };
  const packages = Object.entries(lock.packages).filter(([path, entry]) => path.startsWith('node_modules/') && !entry.dev && !entry.devOptional);
  const missing = packages.filter(([path, entry]) => !entry.optional && !existsSync(join(ROOT, path)));
  if (missing.length > 0) fail(`run npm install first: ${missing.map(([path]) => path).join(', ')} missing`);
  return packages.map(([path]) => path).filter((path) => existsSync(join(ROOT, path)));
}

/** The pinned Node's binary and licence: the npm package `node` installs it as `node-<platform>-<arch>`. */
function runtimeFiles(): { binary: string; licence: string } {
  const dir = join(ROOT, 'node_modules', 'node', 'node_modules', `node-${process.platform}-${process.arch}`);
  const binary = join(dir, 'bin', 'node');
  if (!existsSync(binary)) fail(`no Node runtime at ${binary}: run npm install`);
  return { binary, licence: join(dir, 'LICENSE') };
}

function copy(from: string, to: string): void {
  mkdirSync(dirname(to), { recursive: true });
  cpSync(from, to, { recursive: true, filter: (source) => source === from || basename(source) !== 'node_modules' });
}

function sizeOf(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0);
}

const packageJson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string; description: string };
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const app = join(out, 'app');

const sources = await sourceClosure();
for (const file of sources) copy(join(ROOT, file), join(app, file));
copy(join(ROOT, 'build', 'hosted', 'transpiled'), join(app, 'build', 'hosted', 'transpiled'));
if (withWasmtime) copy(join(ROOT, 'build', 'standalone', 'component.wasm'), join(app, 'build', 'standalone', 'component.wasm'));
const packages = productionPackages();
for (const path of packages) copy(join(ROOT, path), join(app, path));
// Node runs app/ as ES modules; the release is never installed with npm, so nothing else is needed.
writeFileSync(join(app, 'package.json'), `${JSON.stringify({ name: packageJson.name, version: packageJson.version, private: true, type: 'module' }, null, 2)}\n`);

const runtime = runtimeFiles();
copy(runtime.binary, join(out, 'runtime', 'bin', 'node'));
copy(runtime.licence, join(out, 'runtime', 'LICENSE'));
copy(join(RELEASE_FILES, 'launcher.sh'), join(out, 'bin', 'wasi-counter-auth'));
chmodSync(join(out, 'bin', 'wasi-counter-auth'), 0o755);
copy(join(RELEASE_FILES, 'wasi-counter-auth.service'), join(out, 'systemd', 'wasi-counter-auth.service'));
copyFileSync(join(ROOT, '.env.example'), join(out, '.env.example'));
for (const doc of DOCS) copy(join(ROOT, 'docs', doc), join(out, 'docs', doc));
const commit = (() => {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
})();
const nodeVersion = execFileSync(join(out, 'runtime', 'bin', 'node'), ['--version'], { encoding: 'utf8' }).trim();
const manifest = {
  name: packageJson.name,
  version: packageJson.version,
  commit,
  node: nodeVersion,
  platform: `${process.platform}-${process.arch}`,
  wasmtime: withWasmtime,
  built_at: new Date().toISOString(),
};
writeFileSync(join(out, 'release.json'), `${JSON.stringify(manifest, null, 2)}\n`);
const readme = readFileSync(join(RELEASE_FILES, 'README.md'), 'utf8')
  .replaceAll('{{version}}', packageJson.version)
  .replaceAll('{{node}}', nodeVersion)
  .replaceAll('{{commit}}', commit)
  .replaceAll('{{wasmtime}}', withWasmtime ? 'included (`bin/wasi-counter-auth serve-wasmtime`)' : 'not included (built with --without-wasmtime)');
writeFileSync(join(out, 'README.md'), readme);

const mib = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MiB`;
console.log(`release ${packageJson.version} (${manifest.platform}, Node ${nodeVersion}) in ${out}`);
console.log(
  `  ${sources.length} source files, ${packages.length} production packages, ${mib(sizeOf(out))} in all (runtime ${mib(sizeOf(join(out, 'runtime')))}, app ${mib(sizeOf(app))})`,
);
if (values.tarball) {
  const tarball = `${out}.tar.gz`;
  execFileSync('tar', ['-C', dirname(out), '-czf', tarball, basename(out)], { stdio: 'inherit' });
  console.log(`  ${tarball}: ${mib(statSync(tarball).size)}`);
}
console.log(`release done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
