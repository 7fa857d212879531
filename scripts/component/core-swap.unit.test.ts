import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { transpiledDir } from './pipeline.ts';
import { componentShape, recordShape, sectionsOf, swapMainCore } from './core-swap.ts';

const dir = mkdtempSync(join(tmpdir(), 'core-swap-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function leb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n = Math.floor(n / 128);
    if (n > 0) byte |= 0x80;
    out.push(byte);
  } while (n > 0);
  return out;
}
const section = (id: number, bytes: number[] | Buffer) => Buffer.from([id, ...leb(bytes.length), ...bytes]);
const CORE_PREAMBLE = Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);
const COMPONENT_PREAMBLE = Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x0d, 0x00, 0x01, 0x00]);

/** A core module with a type, import, code and data section (contents are opaque bytes here). */
function coreModule(parts: { code?: number[]; data?: number[]; global?: number[] } = {}): Buffer {
  return Buffer.concat([
    CORE_PREAMBLE,
    section(1, [1, 2, 3]),
    section(2, [4, 5]),
    section(6, parts.global ?? [7]),
    section(10, parts.code ?? [8, 9, 10]),
    section(11, parts.data ?? Array.from({ length: 300 }, (_, i) => i % 256)),
  ]);
}
function component(main: Buffer, options: { adapter?: number[]; types?: number[] } = {}): Buffer {
  return Buffer.concat([
    COMPONENT_PREAMBLE,
    section(7, options.types ?? [1, 1]),
    section(1, main),
    section(1, Buffer.concat([CORE_PREAMBLE, section(1, options.adapter ?? [9])])),
    section(0, [3, 97, 98, 99]),
  ]);
}

describe('sectionsOf()', () => {
  it('reads each section, sizes past 127 bytes included', () => {
    const sections = sectionsOf(coreModule());
    expect(sections.map((s) => [s.id, s.bytes.length])).toEqual([
      [1, 3],
      [2, 2],
      [6, 1],
      [10, 3],
      [11, 300],
    ]);
  });

  it('refuses a section that runs past the end', () => {
    expect(() => sectionsOf(Buffer.concat([CORE_PREAMBLE, Buffer.from([11, 10, 1, 2])]))).toThrow(/past the end/);
  });
});

describe('componentShape()', () => {
  const base = componentShape(component(coreModule()), 'salt').shape;

  it('is the same when only what a snapshot writes differs (data, globals)', () => {
    expect(componentShape(component(coreModule({ data: [1, 2, 3], global: [42] })), 'salt').shape).toBe(base);
  });

  it('differs when the code, another core module, a component section or the salt differs', () => {
    expect(componentShape(component(coreModule({ code: [8, 9, 11] })), 'salt').shape).not.toBe(base);
    expect(componentShape(component(coreModule(), { adapter: [10] }), 'salt').shape).not.toBe(base);
    expect(componentShape(component(coreModule(), { types: [1, 2] }), 'salt').shape).not.toBe(base);
    expect(componentShape(component(coreModule()), 'other options').shape).not.toBe(base);
  });

  it('returns the main core module byte for byte', () => {
    const main = coreModule({ data: [5, 6] });
    expect(componentShape(component(main), 'salt').mainCore.equals(main)).toBe(true);
  });
});

describe('swapMainCore() after recordShape()', () => {
  const transpiled = join(dir, 'transpiled');
  const first = coreModule();
  mkdirSync(transpiled, { recursive: true });

  it('does nothing until a full transpile recorded its shape', () => {
    writeFileSync(join(transpiled, 'component.core.wasm'), first);
    expect(swapMainCore(component(coreModule({ data: [1] })), transpiled, 'salt')).toBe(false);
  });

  it('writes the new main core module when the shape is the recorded one', () => {
    recordShape(component(first), transpiled, 'salt');
    const next = coreModule({ data: [1, 2], global: [3] });
    expect(swapMainCore(component(next), transpiled, 'salt')).toBe(true);
    expect(readFileSync(join(transpiled, 'component.core.wasm')).equals(next)).toBe(true);
  });

  it('leaves the files alone when the code changed (a full transpile follows)', () => {
    const before = readFileSync(join(transpiled, 'component.core.wasm'));
    expect(swapMainCore(component(coreModule({ code: [1] })), transpiled, 'salt')).toBe(false);
    expect(readFileSync(join(transpiled, 'component.core.wasm')).equals(before)).toBe(true);
  });

  it('records no shape when the written core module is not the component first one', () => {
    const other = join(dir, 'other');
    mkdirSync(other, { recursive: true });
    writeFileSync(join(other, 'component.core.wasm'), coreModule({ code: [0] }));
    recordShape(component(first), other, 'salt');
    expect(existsSync(join(other, 'shape.sha256'))).toBe(false);
  });
});

describe('the real build', () => {
  const root = join(import.meta.dirname, '..', '..');
  it('jco writes the component first core module as component.core.wasm (what the swap relies on)', () => {
    const wasm = join(root, 'build', 'hosted', 'component.wasm');
    expect(existsSync(wasm), 'run npm run build first').toBe(true);
    const { mainCore } = componentShape(readFileSync(wasm), '');
    expect(readFileSync(join(transpiledDir(root, 'hosted'), 'component.core.wasm')).equals(mainCore)).toBe(true);
  });
});
