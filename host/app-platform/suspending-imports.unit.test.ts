/** The suspending-import table covers exactly what the `hosted` world imports of app:platform, under the WIT's names. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PLATFORM_IMPORTS, PLATFORM_PACKAGE, PLATFORM_VERSION, suspendingPlatformImports, witName } from './suspending-imports.ts';

const root = join(import.meta.dirname, '..', '..');
const wit = readdirSync(join(root, 'wit'))
  .filter((f) => f.endsWith('.wit'))
  .map((f) => readFileSync(join(root, 'wit', f), 'utf8'))
  .join('\n');

describe('suspendingPlatformImports()', () => {
  it('has a verdict for every app:platform interface the hosted world imports, and for no other', () => {
    const world = readFileSync(join(root, 'src', 'contract', 'wit', 'hosted.d.ts'), 'utf8');
    const imported = [...world.matchAll(/\/\/ import (app:platform\/[a-z-]+@[0-9.]+)$/gm)].map((m) => m[1]).sort();
    expect(
      Object.keys(PLATFORM_IMPORTS)
        .map((iface) => `${PLATFORM_PACKAGE}/${iface}@${PLATFORM_VERSION}`)
        .sort(),
    ).toEqual(imported);
  });

  it('names functions and resource methods as the WIT spells them', () => {
    for (const name of suspendingPlatformImports()) {
      const [, iface, member] = /^app:platform\/([a-z-]+)@[0-9.]+#(.+)$/.exec(name)!;
      const method = /^\[method\]([a-z-]+)\.([a-z-]+)$/.exec(member!);
      const body = new RegExp(`interface ${iface} \\{[\\s\\S]*?\\n\\}`).exec(wit)?.[0] ?? '';
      if (method) {
        expect(body, name).toMatch(new RegExp(`resource ${method[1]} \\{[\\s\\S]*?\\n    ${method[2]}: func\\(`));
      } else {
        expect(body, name).toMatch(new RegExp(`\\n  ${member}: func\\(`));
      }
    }
  });

  it('turns camel case into kebab case', () => {
    expect(['appendAndEnd', 'Lease', 'get'].map(witName)).toEqual(['append-and-end', 'lease', 'get']);
  });
});
