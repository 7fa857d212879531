/**
 * The packages allowed to run install scripts (`allowScripts` in package.json) are exactly those
 * of the lockfile that have one: a new dependency with an install script is reviewed and listed
 * before it lands, since `.npmrc` keeps npm's notice about unreviewed scripts out of the output.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const manifest = v.parse(v.object({ allowScripts: v.record(v.string(), v.boolean()) }), JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')));
const lock = v.parse(
  v.object({ packages: v.record(v.string(), v.object({ hasInstallScript: v.optional(v.boolean()) })) }),
  JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')),
);

describe('install scripts', () => {
  it('every locked package with an install script is reviewed in allowScripts, and nothing else is', () => {
    const withScripts = Object.entries(lock.packages)
      .filter(([, entry]) => entry.hasInstallScript === true)
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
    expect(Object.keys(manifest.allowScripts).sort()).toEqual([...new Set(withScripts)].sort());
  });
});
