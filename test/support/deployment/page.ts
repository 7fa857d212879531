/**
 * docs/deployment.md as the steps a test runs: its fenced blocks in order, each with the `## `
 * section it is in and its attributes. A block is `sh` (commands), `file=PATH` (a file the
 * operator writes) or `release=PATH` (a file of the release, shown). Blocks the page holds for
 * another test (the `wasmtime serve` location, which test/e2e/wasmtime-client-address runs) are
 * named by their section.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../../harness/host-process.ts';

export const PAGE = 'docs/deployment.md';

export interface PageBlock {
  section: string;
  language: string;
  /** Where the operator writes it (`file=`). */
  file?: string;
  /** The release file it shows (`release=`). */
  release?: string;
  text: string;
}

export function pageBlocks(page = PAGE): PageBlock[] {
  const text = readFileSync(join(ROOT, page), 'utf8');
  const blocks: PageBlock[] = [];
  let section = '';
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith('## ')) section = line.slice(3);
    const fence = /^```(\S+)((?: \S+=\S+)*)$/.exec(line);
    if (!fence) continue;
    const attributes = Object.fromEntries([...(fence[2] ?? '').matchAll(/ (\S+?)=(\S+)/g)].map((m) => [m[1], m[2]]));
    const end = lines.indexOf('```', i + 1);
    if (end < 0) throw new Error(`${page}: a block in "${section}" is not closed`);
    blocks.push({ section, language: fence[1]!, file: attributes['file'], release: attributes['release'], text: `${lines.slice(i + 1, end).join('\n')}\n` });
    i = end;
  }
  return blocks;
}

/** The page's blocks, each taken once by the test; `unused()` names any it never took. */
export class PageSteps {
  readonly #blocks = pageBlocks();
  readonly #taken = new Set<PageBlock>();

  /** The blocks of `section` (in page order), marked taken. */
  take(section: string): PageBlock[] {
    const found = this.#blocks.filter((block) => block.section === section);
    if (found.length === 0) throw new Error(`${PAGE} has no blocks in a section "${section}"`);
    for (const block of found) this.#taken.add(block);
    return found;
  }

  /** The one block of `section` that writes `file`. */
  file(section: string, file: string): PageBlock {
    const block = this.take(section).find((b) => b.file === file);
    if (!block) throw new Error(`${PAGE}, ${section}: no block with file=${file}`);
    return block;
  }

  /** The sh blocks of `section`, in order. */
  commands(section: string): PageBlock[] {
    return this.take(section).filter((block) => block.language === 'sh' && block.file === undefined);
  }

  unused(): string[] {
    return this.#blocks.filter((block) => !this.#taken.has(block)).map((block) => `${block.section}: ${block.language} ${block.file ?? block.release ?? ''}`.trim());
  }
}
