/**
 * A host process started ahead of its turn. It loads host/main.ts's modules at once (on the
 * 2-core machine Node's start and those imports are 1-2 s of a host's 2-5 s start), then waits;
 * sent its arguments, it runs host/main.ts with them, exactly as `node host/main.ts <args>` would
 * (the modules have no effect until main.ts uses them, and the component is read only then). The
 * dev runner keeps one ready while a host serves, so that the next restart skips that part.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export type ToLauncher = { kind: 'start'; args: string[] };

const main = join(import.meta.dirname, '..', '..', 'host', 'main.ts');
const mainUrl = pathToFileURL(main);

// The dev runner went away before this host's turn came.
const orphaned = () => process.exit(0);
process.on('disconnect', orphaned);

const preloaded = (async () => {
  // main.ts's own relative imports (static ones: `import … from './x.ts'`), and through them the rest.
  const source = readFileSync(main, 'utf8');
  for (const [, specifier] of source.matchAll(/^\s*import\s[^;]*?from\s+'(\.{1,2}\/[^']+)'/gm)) await import(new URL(specifier!, mainUrl).href);
})();

process.once('message', async (message: ToLauncher) => {
  if (message.kind !== 'start') return;
  await preloaded;
  process.off('disconnect', orphaned);
  process.disconnect();
  process.argv = [process.argv[0]!, main, ...message.args];
  await import(mainUrl.href);
});
