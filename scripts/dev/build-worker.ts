/**
 * The dev runner's build, in a child process that lives as long as `npm run dev`: the build's
 * compilers (componentize-js's splicer, jco's wasm-tools, esbuild with what it parsed) stay
 * loaded and warm from one build to the next (on the 2-core machine a cold componentize takes
 * 3-6 times as long as a warm one: docs/development.md), and the dev runner keeps serving while
 * a build runs. (A process, not a worker thread: componentize-js gives wizer the process's own
 * stdout.) It reports which files of host/ it loaded (the build reads the host's list of
 * suspending imports): a change to one of those needs a new build process.
 */
import { existsSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export type ToWorker = { kind: 'build' } | { kind: 'warm-up' };
export type FromWorker =
  | { kind: 'ready'; hostInputs: string[] }
  | { kind: 'done'; ok: true; ran: string[] }
  | { kind: 'done'; ok: false; error: string }
  | { kind: 'warmed'; ms: number };

const root = join(import.meta.dirname, '..', '..');
const post = (message: FromWorker) => process.send!(message);

const hostUrl = `${pathToFileURL(join(root, 'host')).href}/`;
const hostInputs = new Set<string>();
registerHooks({
  resolve(specifier, context, nextResolve) {
    const resolved = nextResolve(specifier, context);
    if (resolved.url.startsWith(hostUrl)) hostInputs.add(fileURLToPath(resolved.url));
    return resolved;
  },
});
const { buildComponent, componentizeBundle } = await import('../component/pipeline.ts');
const { guestBundles } = await import('../guest-bundle.ts');
const bundles = guestBundles();
post({ kind: 'ready', hostInputs: [...hostInputs] });

async function build(): Promise<FromWorker> {
  try {
    const { ran } = await buildComponent(root, ['hosted'], { bundle: bundles.bundle });
    return { kind: 'done', ok: true, ran };
  } catch (error) {
    return { kind: 'done', ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** One componentize of the current bundle, thrown away: the next build finds the compilers warm. */
async function warmUp(): Promise<FromWorker> {
  const started = performance.now();
  const bundle = join(root, 'build', 'hosted', 'bundle.js');
  if (existsSync(bundle)) await componentizeBundle(root, bundle, 'hosted').catch(() => undefined);
  return { kind: 'warmed', ms: performance.now() - started };
}

// One request at a time, in order.
let queue = Promise.resolve();
process.on('message', (message: ToWorker) => {
  queue = queue.then(async () => {
    post(await (message.kind === 'build' ? build() : warmUp()));
  });
});
// The dev runner is gone (its IPC channel closed): so is this process.
process.on('disconnect', () => void bundles.dispose().finally(() => process.exit(0)));
