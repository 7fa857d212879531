import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cachedSplice, DISK_ENTRIES, type SpliceBindings, type Spliced } from './splice-cache.ts';

const dir = mkdtempSync(join(tmpdir(), 'splice-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A stand-in for componentize-js's splicer that counts its calls. */
function counting(): { splice: SpliceBindings; calls: () => number } {
  let calls = 0;
  const splice: SpliceBindings = (engine, features, _witWorld, _witPath, worldName) => {
    calls++;
    return {
      wasm: engine.map((b) => b ^ 0xff),
      jsBindings: `bindings of ${worldName} with ${features.join(',')}`,
      exports: [['handle', { params: [] }]],
      imports: [['wasi:io', 'poll', 1]],
    };
  };
  return { splice, calls: () => calls };
}

function witDir(name: string, text: string): string {
  const wit = join(dir, name);
  mkdirSync(join(wit, 'deps'), { recursive: true });
  writeFileSync(join(wit, 'world.wit'), text);
  writeFileSync(join(wit, 'deps', 'dep.wit'), 'package dep:x;');
  return wit;
}

describe('cachedSplice()', () => {
  const engine = new Uint8Array([0, 97, 115, 109, 1, 2, 3]);

  it('splices once for the same engine, WIT and world, in this process and in the next', () => {
    const cache = join(dir, 'cache-a');
    const wit = witDir('wit-a', 'package app:a; world hosted {}');
    const { splice, calls } = counting();
    const first = cachedSplice(splice, cache, '0.23.0')(engine, ['http'], undefined, wit, 'hosted', false);
    const again = cachedSplice(splice, cache, '0.23.0')(engine, ['http'], undefined, wit, 'hosted', false);
    expect(calls()).toBe(1);
    expect(again).toEqual(first);
    expect(Buffer.from(again.wasm)).toEqual(Buffer.from(engine.map((b) => b ^ 0xff)));
  });

  it('splices anew when a WIT file, the world, the features or componentize-js change', () => {
    const cache = join(dir, 'cache-b');
    const wit = witDir('wit-b', 'package app:b; world hosted {}');
    const { splice, calls } = counting();
    const cached = cachedSplice(splice, cache, '0.23.0');
    cached(engine, ['http'], undefined, wit, 'hosted', false);
    cached(engine, ['http'], undefined, wit, 'standalone', false);
    cached(engine, ['http', 'stdio'], undefined, wit, 'standalone', false);
    cachedSplice(splice, cache, '0.24.0')(engine, ['http', 'stdio'], undefined, wit, 'standalone', false);
    writeFileSync(join(wit, 'deps', 'dep.wit'), 'package dep:y;');
    cached(engine, ['http', 'stdio'], undefined, wit, 'standalone', false);
    expect(calls()).toBe(5);
  });

  it('keys on what the WIT files hold, not on where they are (a copy of the checkout hits)', () => {
    const cache = join(dir, 'cache-c');
    const { splice, calls } = counting();
    cachedSplice(splice, cache, '0.23.0')(engine, ['http'], undefined, witDir('wit-c1', 'package app:c; world hosted {}'), 'hosted', false);
    cachedSplice(splice, cache, '0.23.0')(engine, ['http'], undefined, witDir('wit-c2', 'package app:c; world hosted {}'), 'hosted', false);
    expect(calls()).toBe(1);
  });

  it(`keeps the newest ${DISK_ENTRIES} splices on disk`, () => {
    const cache = join(dir, 'cache-d');
    const wit = witDir('wit-d', 'package app:d; world hosted {}');
    const { splice } = counting();
    const cached = cachedSplice(splice, cache, '0.23.0');
    for (let i = 0; i < DISK_ENTRIES + 3; i++) cached(engine, [`feature-${i}`], undefined, wit, 'hosted', false);
    expect(readdirSync(cache).filter((f) => f.endsWith('.wasm'))).toHaveLength(DISK_ENTRIES);
    expect(readdirSync(cache).filter((f) => f.endsWith('.json'))).toHaveLength(DISK_ENTRIES);
  });

  it('gives each caller its own copy', () => {
    const cache = join(dir, 'cache-e');
    const wit = witDir('wit-e', 'package app:e; world hosted {}');
    const cached = cachedSplice(counting().splice, cache, '0.23.0');
    const first: Spliced = cached(engine, ['http'], undefined, wit, 'hosted', false);
    first.wasm[0] = 42;
    (first.exports as unknown[]).length = 0;
    const second = cached(engine, ['http'], undefined, wit, 'hosted', false);
    expect(second.wasm[0]).not.toBe(42);
    expect(second.exports).toHaveLength(1);
  });
});
