/**
 * The build's unit of work: a step hashes its inputs and runs only when they, or its outputs,
 * changed since it last succeeded (a stamp per step under build/.stamps/). `npm run build` and
 * `npm run dev` run the same steps, so each skips what the other already built.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Every file under `dir` but tests, sorted (tests are not part of any build). */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile() && !/\.test\.tsx?$/.test(f))
    .sort();
}

export interface StepRunner {
  /** Runs `work` unless the stamp says its inputs and outputs are unchanged; true when it ran. */
  step(name: string, inputs: readonly string[], outputs: readonly string[], extra: string, work: () => Promise<string>): Promise<boolean>;
}

/** Steps of the checkout at `root`; `force` runs every step; `log` receives the one line each step prints. */
export function stepRunner(root: string, options: { force: boolean; log: (line: string) => void }): StepRunner {
  const hashOf = (files: readonly string[], extra: string): string => {
    const h = createHash('sha256').update(extra);
    for (const f of files) h.update(relative(root, f)).update(readFileSync(f));
    return h.digest('hex');
  };
  return {
    async step(name, inputs, outputs, extra, work) {
      const stampFile = join(root, 'build', '.stamps', `${name}.sha256`);
      const hash = hashOf(inputs, extra);
      const upToDate = !options.force && outputs.every((o) => existsSync(o)) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === hash;
      if (upToDate) {
        options.log(`  ${name.padEnd(24)} skipped (inputs unchanged)`);
        return false;
      }
      const started = performance.now();
      const detail = await work();
      mkdirSync(join(root, 'build', '.stamps'), { recursive: true });
      writeFileSync(stampFile, hash);
      options.log(`  ${name.padEnd(24)} ${((performance.now() - started) / 1000).toFixed(1).padStart(5)} s  ${detail}`);
      return true;
    },
  };
}
