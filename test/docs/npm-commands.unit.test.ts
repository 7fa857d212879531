/**
 * Every `npm run <script>` written in README.md and docs/ (code blocks included) names a script of
 * package.json, every `npm run bench -- <name>` a benchmark of bench/list.ts, and
 * docs/benchmarks.md names every benchmark: a renamed command cannot leave a page behind. Dated
 * runs (docs/runs/<date>-*.md) are records and keep the commands they were run with.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BENCHMARKS } from '../../bench/list.ts';
import { documentationFiles, isDatedRun, ROOT, readDoc } from './markdown.ts';

const scripts = Object.keys((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts);
const benchmarks = BENCHMARKS.map((b) => b.name);

/** Each `npm run …` of a text with its line number; `bench` with the benchmark it names, if any. */
function npmRuns(text: string): { line: number; script: string; benchmark?: string }[] {
  const out: { line: number; script: string; benchmark?: string }[] = [];
  text.split('\n').forEach((line, index) => {
    for (const match of line.matchAll(/\bnpm run (?:-\S+ )*([A-Za-z0-9:_-]+)(?: -- ([A-Za-z0-9-]+))?/g)) {
      const [, script = '', argument] = match;
      out.push({ line: index + 1, script, ...(script === 'bench' && argument !== undefined ? { benchmark: argument } : {}) });
    }
  });
  return out;
}

describe('npmRuns()', () => {
  it('finds scripts and the benchmark a bench command names', () => {
    expect(npmRuns('run `npm run build`, then\n`npm run bench -- scale --out x` or npm run bench:soak')).toEqual([
      { line: 1, script: 'build' },
      { line: 2, script: 'bench', benchmark: 'scale' },
      { line: 2, script: 'bench:soak' },
    ]);
  });
});

describe('npm commands in the documentation', () => {
  const files = documentationFiles().filter((file) => !isDatedRun(file));

  it.each(files)('%s: every npm run names a script, every bench command a benchmark', (file) => {
    const wrong = npmRuns(readDoc(file)).flatMap(({ line, script, benchmark }) => [
      ...(scripts.includes(script) ? [] : [`${file}:${line}: npm run ${script} is not a script of package.json`]),
      ...(benchmark === undefined || benchmark.startsWith('-') || benchmarks.includes(benchmark) ? [] : [`${file}:${line}: no benchmark named ${benchmark} (bench/list.ts)`]),
    ]);
    expect(wrong).toEqual([]);
  });

  it('docs/benchmarks.md names every benchmark', () => {
    const named = new Set(npmRuns(readDoc('docs/benchmarks.md')).map((run) => run.benchmark));
    expect(benchmarks.filter((name) => !named.has(name))).toEqual([]);
  });
});
