/**
 * Loads the `jco transpile` output of the hosted component: its core modules are compiled once,
 * then any number of instances are created from them with the host's imports.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { GuestInstance, InstanceStats } from './pool.ts';

type Instantiate = (
  getCoreModule: (path: string) => Promise<WebAssembly.Module>,
  imports: Record<string, unknown>,
) => Promise<{ incomingHandler: { handle(req: unknown, out: unknown): Promise<void> }; $stats?(): InstanceStats }>;

/** What an instance reports when its glue was transpiled without the stats patch (test probe components). */
const NO_STATS: InstanceStats = { handles: 0, captured: 0, createdReps: 0, memoryBytes: 0 };

export interface LoadedComponent {
  instantiate(imports: Record<string, unknown>): Promise<GuestInstance>;
}

export async function loadComponent(dir: string): Promise<LoadedComponent> {
  const entry = join(dir, 'component.js');
  const module = (await import(pathToFileURL(entry).href)) as { instantiate: Instantiate };
  const compiled = new Map<string, Promise<WebAssembly.Module>>();
  const getCoreModule = (path: string) => {
    let m = compiled.get(path);
    if (!m) {
      m = readFile(join(dir, path)).then((bytes) => WebAssembly.compile(bytes));
      compiled.set(path, m);
    }
    return m;
  };
  return {
    async instantiate(imports) {
      const instance = await module.instantiate(getCoreModule, imports);
      const handler = instance.incomingHandler;
      // $stats: added to jco's output by scripts/jco-patches.ts (patchInstanceStats); the
      // project's build always has it, probe components built by tests may not.
      return { handle: (req, out) => handler.handle(req, out), stats: () => instance.$stats?.() ?? NO_STATS };
    },
  };
}
