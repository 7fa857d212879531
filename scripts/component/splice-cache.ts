/**
 * A cache of componentize-js's first step, splicing the WIT world's bindings into the StarlingMonkey
 * engine (`splicer.spliceBindings`). Its result depends only on the engine, the WIT files and the
 * world, not on the JavaScript being componentized, yet it takes 1-9 s of the componentize step on
 * the 2-core machine (docs/build.md): a build after a change in src/ reuses it. Kept on disk under
 * build/.cache/splice/ (the newest few) and the last one in memory. A changed engine (another
 * componentize-js), WIT file or world misses: the key hashes all of them.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { filesUnder } from './steps.ts';

/** What `spliceBindings` returns (componentize-js 0.23). */
export interface Spliced {
  wasm: Uint8Array;
  jsBindings: string;
  exports: unknown[];
  imports: unknown[];
}

export type SpliceBindings = (
  engine: Uint8Array,
  features: string[],
  witWorld: string | undefined,
  witPath: string | undefined,
  worldName: string | undefined,
  debug: boolean,
) => Spliced;

interface Splicer {
  spliceBindings: SpliceBindings;
  spliceCached?: boolean;
}

/** Splices on disk at most: each is the ~10 MB engine with bindings. */
export const DISK_ENTRIES = 4;

/** The splice's key: the engine, the other arguments, and every file under the WIT path. */
function keyOf(version: string, args: Parameters<SpliceBindings>): string {
  const [engine, features, witWorld, witPath, worldName, debug] = args;
  // The WIT path's files, not the path: a copy of the checkout splices the same.
  const h = createHash('sha256').update(JSON.stringify({ version, features, witWorld, worldName, debug })).update(engine);
  if (witPath !== undefined) {
    const files = statSync(witPath).isDirectory() ? filesUnder(witPath) : [witPath];
    for (const f of files) h.update(relative(witPath, f)).update(readFileSync(f));
  }
  return h.digest('hex').slice(0, 32);
}

/** A copy, so that no caller can change what the cache holds. */
const copyOf = (s: Spliced): Spliced => ({ wasm: s.wasm.slice(), jsBindings: s.jsBindings, exports: structuredClone(s.exports), imports: structuredClone(s.imports) });

function readEntry(dir: string, key: string): Spliced | undefined {
  const wasm = join(dir, `${key}.wasm`);
  const meta = join(dir, `${key}.json`);
  if (!existsSync(wasm) || !existsSync(meta)) return undefined;
  const now = new Date();
  utimesSync(wasm, now, now); // the newest entries are kept
  const { jsBindings, exports, imports } = JSON.parse(readFileSync(meta, 'utf8')) as Omit<Spliced, 'wasm'>;
  return { wasm: new Uint8Array(readFileSync(wasm)), jsBindings, exports, imports };
}

function writeEntry(dir: string, key: string, spliced: Spliced): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${key}.json`), JSON.stringify({ jsBindings: spliced.jsBindings, exports: spliced.exports, imports: spliced.imports }));
  writeFileSync(join(dir, `${key}.wasm`), spliced.wasm); // last: an entry counts once its wasm exists
  const entries = readdirSync(dir)
    .filter((f) => f.endsWith('.wasm'))
    .map((f) => ({ key: f.slice(0, -'.wasm'.length), at: statSync(join(dir, f)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const old of entries.slice(DISK_ENTRIES)) for (const ext of ['.wasm', '.json']) rmSync(join(dir, `${old.key}${ext}`), { force: true });
}

/** `splice` answering from the cache in `dir` (`version`: componentize-js's, part of every key). */
export function cachedSplice(splice: SpliceBindings, dir: string, version: string): SpliceBindings {
  let last: { key: string; spliced: Spliced } | undefined;
  return (...args) => {
    const key = keyOf(version, args);
    if (last?.key !== key) {
      let spliced = readEntry(dir, key);
      if (spliced === undefined) {
        spliced = splice(...args);
        writeEntry(dir, key, spliced);
      }
      last = { key, spliced };
    }
    return copyOf(last.spliced);
  };
}

/**
 * Makes componentize-js's own `splicer` (loaded by file URL, as componentize-patches.ts does)
 * answer from the cache. Install it before the patches, so that they apply to every answer.
 */
export async function installSpliceCache(root: string): Promise<void> {
  const lib = join(root, 'node_modules', '@bytecodealliance', 'componentize-js');
  const { splicer } = (await import(pathToFileURL(join(lib, 'lib', 'spidermonkey-embedding-splicer.js')).href)) as { splicer: Splicer };
  if (splicer.spliceCached) return;
  const { version } = JSON.parse(readFileSync(join(lib, 'package.json'), 'utf8')) as { version: string };
  splicer.spliceBindings = cachedSplice(splicer.spliceBindings.bind(splicer), join(root, 'build', '.cache', 'splice'), version);
  splicer.spliceCached = true;
}
