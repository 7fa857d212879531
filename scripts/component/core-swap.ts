/**
 * The transpile step's short way. After a change in src/ the new component differs from the last
 * one only inside its main core module, and there only in what wizer's snapshot wrote (the data,
 * the globals' initial values, the memory's size): its types, imports, exports, code and every
 * other part are the same engine with the same bindings. jco's glue (component.js) is then the
 * same too, and jco would only write the new core module out again as component.core.wasm. So
 * when the new component has the last transpiled one's shape, that module is written in place;
 * anything else (a WIT change, another engine, other build options) transpiles in full.
 *
 * Component binary format: https://github.com/WebAssembly/component-model/blob/main/design/mvp/Binary.md
 * (a core module is section id 1); core sections: https://webassembly.github.io/spec/core/binary/modules.html
 */
import { createHash, type Hash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

interface Section {
  id: number;
  /** The section's content (without id and size). */
  bytes: Buffer;
}

const PREAMBLE_BYTES = 8;
const CORE_MODULE_SECTION = 1;
/** Core sections a snapshot rewrites: memory (5), global (6), data (11), data count (12). */
const SNAPSHOT_SECTIONS = new Set([5, 6, 11, 12]);
/** What jco names the first core module of a component it transpiles with `--name component`. */
const MAIN_CORE_FILE = 'component.core.wasm';
const SHAPE_FILE = 'shape.sha256';

/** The sections of a component or core module binary (after its 8-byte preamble). */
export function sectionsOf(binary: Buffer): Section[] {
  const sections: Section[] = [];
  let at = PREAMBLE_BYTES;
  while (at < binary.length) {
    const id = binary[at++]!;
    let size = 0;
    let shift = 0;
    let byte: number;
    do {
      if (at >= binary.length) throw new Error('truncated section size');
      byte = binary[at++]!;
      size += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80);
    if (at + size > binary.length) throw new Error('section runs past the end');
    sections.push({ id, bytes: binary.subarray(at, at + size) });
    at += size;
  }
  return sections;
}

const hashSection = (hash: Hash, section: Section) =>
  hash
    .update(Buffer.from([section.id]))
    .update(String(section.bytes.length))
    .update(section.bytes);

/**
 * The component's shape (every byte but its main core module's snapshot sections) and that
 * module. `salt`: whatever else decides jco's output (its options, the patches applied to it).
 */
export function componentShape(component: Buffer, salt: string): { shape: string; mainCore: Buffer } {
  const hash = createHash('sha256').update(salt).update(component.subarray(0, PREAMBLE_BYTES));
  let mainCore: Buffer | undefined;
  for (const section of sectionsOf(component)) {
    if (section.id !== CORE_MODULE_SECTION || mainCore !== undefined) {
      hashSection(hash, section);
      continue;
    }
    mainCore = section.bytes;
    hash.update('main core module').update(mainCore.subarray(0, PREAMBLE_BYTES));
    for (const core of sectionsOf(mainCore)) {
      if (SNAPSHOT_SECTIONS.has(core.id)) hash.update(Buffer.from([core.id]));
      else hashSection(hash, core);
    }
  }
  if (mainCore === undefined) throw new Error('the component has no core module');
  return { shape: hash.digest('hex'), mainCore };
}

/** Writes the new main core module into `transpiled` if the last transpile had this shape; true when it did. */
export function swapMainCore(component: Buffer, transpiled: string, salt: string): boolean {
  const { shape, mainCore } = componentShape(component, salt);
  const shapeFile = join(transpiled, SHAPE_FILE);
  if (!existsSync(shapeFile) || readFileSync(shapeFile, 'utf8') !== shape || !existsSync(join(transpiled, MAIN_CORE_FILE))) return false;
  writeFileSync(join(transpiled, MAIN_CORE_FILE), mainCore);
  return true;
}

/**
 * After a full transpile: records the shape, once jco's main core module file is seen to be the
 * component's first core module byte for byte (else the short way is never taken).
 */
export function recordShape(component: Buffer, transpiled: string, salt: string): void {
  const { shape, mainCore } = componentShape(component, salt);
  const written = join(transpiled, MAIN_CORE_FILE);
  if (existsSync(written) && readFileSync(written).equals(mainCore)) writeFileSync(join(transpiled, SHAPE_FILE), shape);
}
