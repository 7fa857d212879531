/**
 * `npm run bench -- <name> [options]`: runs one benchmark (bench/list.ts) with its options, e.g.
 * `npm run bench -- scale --out docs/runs/<date>-scale.md`. Without a name, or with `--list`, it
 * lists them. What each shows: docs/benchmarks.md.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BENCHMARKS } from './list.ts';

const [name, ...options] = process.argv.slice(2);

function list(): string {
  const width = Math.max(...BENCHMARKS.map((b) => b.name.length));
  return ['npm run bench -- <name> [options]   (docs/benchmarks.md says what each shows)', '', ...BENCHMARKS.map((b) => `  ${b.name.padEnd(width)}  ${b.compares}`)].join('\n');
}

if (name === undefined || name === '--list' || name === '--help' || name === '-h') {
  console.log(list());
  process.exit(0);
}
const benchmark = BENCHMARKS.find((b) => b.name === name);
if (!benchmark) {
  process.stderr.write(`error: no benchmark named ${name}\n\n${list()}\n`);
  process.exit(2);
}
if (benchmark.variants) {
  const { buildComponent } = await import('../scripts/component/pipeline.ts');
  await buildComponent(join(import.meta.dirname, '..'), benchmark.variants);
}
// The benchmark reads its options from process.argv, as when run as `node bench/<entry>`.
const entry = join(import.meta.dirname, benchmark.entry);
process.argv = [process.argv[0]!, entry, ...options];
await import(pathToFileURL(entry).href);
