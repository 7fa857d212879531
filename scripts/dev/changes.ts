/**
 * What a saved file asks of the dev runner. src/ and static/ go into the component (static/ is
 * embedded in it), wit/ is its contract: a change there needs a build, whose steps then skip what
 * did not change (scripts/component/steps.ts). host/ is loaded by the host process: a restart, and no
 * build. Tests, editor droppings and the build's own output ask for nothing.
 */
import { watch, type FSWatcher } from 'node:fs';
import { join, sep } from 'node:path';

export const WATCHED = ['src', 'static', 'wit', 'host'] as const;

export interface Needs {
  build: boolean;
  restart: boolean;
  /** wit/ changed: the generated WIT types may need `npm run gen:wit-types`. */
  wit: boolean;
}

/** Written by the build itself (static-assets step). */
const BUILD_OUTPUT = ['src/web/generated/'];
/** Tests, and files editors write beside the one being saved (vim's swap and probe files, Emacs' locks and backups). */
const IGNORED = /(\.test\.tsx?|\.sw[a-p]|~|\/4913|___jb_(?:tmp|old)___)$|\/\.#|\/#[^/]*#$/;

/** `paths` relative to the repository root, with `/`. */
export function needsOf(paths: Iterable<string>): Needs {
  const needs: Needs = { build: false, restart: false, wit: false };
  for (const path of paths) {
    if (IGNORED.test(path) || BUILD_OUTPUT.some((dir) => path.startsWith(dir))) continue;
    const top = path.split('/', 1)[0];
    if (top === 'host') needs.restart = true;
    else if (top === 'src' || top === 'static' || top === 'wit') needs.build = true;
    if (top === 'wit') needs.wit = true;
  }
  return needs;
}

/** Most paths remembered between two batches; a larger batch asks for everything. */
const MAX_BATCH = 1_000;
/** Saves that come together (an editor's write and rename, a branch switch) make one batch. */
const SETTLE_MS = 60;

export interface Batch {
  paths: string[];
  /** When the first change of the batch was seen (performance.now()). */
  since: number;
  /** More paths changed than were kept. */
  overflow: boolean;
}

/** Watches the four folders under `root`; calls `onBatch` once the saves of a moment have settled. */
export function watchSources(root: string, onBatch: (batch: Batch) => void): { close(): void } {
  let paths = new Set<string>();
  let since = 0;
  let overflow = false;
  let timer: NodeJS.Timeout | undefined;
  const watchers: FSWatcher[] = WATCHED.map((dir) =>
    watch(join(root, dir), { recursive: true }, (_event, file) => {
      if (file === null) return;
      if (paths.size === 0 && !overflow) since = performance.now();
      if (paths.size < MAX_BATCH) paths.add(`${dir}/${file.split(sep).join('/')}`);
      else overflow = true;
      clearTimeout(timer);
      timer = setTimeout(() => {
        const batch = { paths: [...paths].sort(), since, overflow };
        paths = new Set();
        overflow = false;
        onBatch(batch);
      }, SETTLE_MS);
    }),
  );
  return {
    close() {
      clearTimeout(timer);
      for (const w of watchers) w.close();
    },
  };
}
