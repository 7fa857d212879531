/**
 * Benchmark target (c), the ceiling: the same Hono application run natively on Node, without
 * WebAssembly, over the same SQLite backend.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { serve } from '@hono/node-server';
import { build } from 'esbuild';
import type * as AppModule from '../../src/app.ts';
import type * as ConfigModule from '../../src/config.ts';
import { call } from '../../src/platform/hosted/errors.ts';
import { consoleLogger } from '../../src/platform/log.ts';
import type { Platform } from '../../src/platform/ports.ts';
import { unfencedLeases } from '../../src/platform/leases/unfenced-leases.ts';
import { MemoryPasswordHasher } from '../../src/platform/testing/memory-password-hasher.ts';
import { openSqliteStorage } from '../../host/storage/sqlite/index.ts';

// Node runs .ts but not .tsx (the pages), so the application is bundled for Node first, exactly
// as the component's bundle is made, minus the WebAssembly steps.
const root = join(import.meta.dirname, '..', '..');
const bundle = join(root, 'build', 'bench-native', 'app.js');
await build({
  stdin: { contents: "export { buildApp } from './src/app.ts'; export { parseConfig } from './src/config.ts';", resolveDir: root, loader: 'ts' },
  bundle: true,
  format: 'esm',
  platform: 'node',
  outfile: bundle,
  jsx: 'automatic',
  jsxImportSource: 'hono/jsx',
  logLevel: 'warning',
});
const { buildApp, parseConfig } = (await import(pathToFileURL(bundle).href)) as typeof AppModule & typeof ConfigModule;

const storage = openSqliteStorage({ path: join(process.env.DATA_DIR ?? './data/bench-native', 'app.sqlite') });
const wrap = <T extends object>(target: T): T =>
  new Proxy(target, {
    get: (t, k) => {
      const f = Reflect.get(t, k) as unknown;
      return typeof f === 'function' ? (...a: unknown[]) => call(() => (f as (...x: unknown[]) => unknown).apply(t, a)) : f;
    },
  });
const listeners = new Set<(m: string) => void>();
const events = wrap(storage.events) as unknown as Platform['events'];
const platform: Platform = {
  events,
  leases: unfencedLeases(events),
  projections: wrap(storage.projections) as unknown as Platform['projections'],
  keyValue: wrap(storage.keyValue) as unknown as Platform['keyValue'],
  pubsub: {
    publish: (_c, m) => {
      for (const l of listeners) l(m);
    },
    subscribe: () => ({ next: () => undefined, close: () => undefined }),
  },
  // The counter benchmark never hashes passwords; the auth routes need some hasher to exist.
  passwords: new MemoryPasswordHasher(),
  // Nor does it send mail.
  mail: { send: () => '' },
  logger: consoleLogger(),
  now: () => Date.now(),
  sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
  // After the current macrotask: the response is on its way by then, as in the component.
  afterResponse: (_key, task) => void setImmediate(task),
  storeUpkeep: () => 0,
  scrubRemoved: () => {},
};
const app = buildApp(platform, parseConfig([['REALTIME', 'local']]));
const port = Number(process.env.PORT ?? 3000);
serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, () => console.log(JSON.stringify({ code: 'host_listening', port })));
