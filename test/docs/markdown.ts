/**
 * Just enough Markdown reading for the documentation tests: headings, their GitHub anchors, links
 * and tables, all outside fenced code blocks.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from '../../harness/host-process.ts';

export { ROOT };

/** README.md and every Markdown file under docs/, as paths relative to the repository root. */
export function documentationFiles(): string[] {
  const files = ['README.md'];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) files.push(relative(ROOT, path));
    }
  };
  walk(join(ROOT, 'docs'));
  return files.sort();
}

/**
 * A dated measurement (docs/runs/<date>-<topic>.md): a record kept as it was written, so the
 * commands and paths it names are those of its day (its links are still checked).
 */
export function isDatedRun(path: string): boolean {
  return /^docs\/runs\/\d{4}-\d{2}-\d{2}-/.test(path);
}

export function readDoc(path: string): string {
  return readFileSync(join(ROOT, path), 'utf8');
}

/** The lines outside fenced code blocks (``` or ~~~), with their 1-based line numbers. */
export function proseLines(text: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let fence: string | undefined;
  text.split('\n').forEach((line, index) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker !== undefined && (fence === undefined || marker.startsWith(fence))) {
      fence = fence === undefined ? marker : undefined;
      return;
    }
    if (fence === undefined) out.push({ line: index + 1, text: line });
  });
  return out;
}

/** The visible text of inline Markdown: code spans unwrapped, links reduced to their text, emphasis dropped. */
function inlineText(markdown: string): string {
  return markdown
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/(\*\*|__)(.*?)\1/g, '$2')
    .replace(/\*(.*?)\*/g, '$1')
    .replace(/<[^>]+>/g, '');
}

/**
 * GitHub's anchor for a heading (github-slugger): lower case, every character that is not a
 * letter, digit, mark, space, `-` or `_` dropped, each space a `-`.
 */
export function slug(heading: string): string {
  return inlineText(heading)
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor of a document; a repeated heading gets -1, -2, … (github-slugger's occurrence counting). */
export function anchors(text: string): Set<string> {
  const occurrences = new Map<string, number>();
  for (const { text: line } of proseLines(text)) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const original = slug(heading);
    let anchor = original;
    while (occurrences.has(anchor)) {
      const count = (occurrences.get(original) ?? 0) + 1;
      occurrences.set(original, count);
      anchor = `${original}-${count}`;
    }
    occurrences.set(anchor, 0);
  }
  return new Set(occurrences.keys());
}

export interface Link {
  line: number;
  target: string;
}

/** Inline links and images (`[text](target)`, `![alt](target)`) outside code, with their line numbers. */
export function links(text: string): Link[] {
  const out: Link[] = [];
  for (const { line, text: raw } of proseLines(text)) {
    // Code spans are not links, but a link's text may be a code span: blank the spans, keep the brackets around them.
    const withoutCode = raw.replace(/`[^`]*`/g, (span) => 'x'.repeat(span.length));
    for (const match of withoutCode.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      out.push({ line, target: match[1] ?? '' });
    }
  }
  return out;
}

/** The rows of every pipe table, each row as its trimmed cells (header and separator rows left out). */
export function tableRows(text: string): string[][][] {
  const tables: string[][][] = [];
  let current: string[][] | undefined;
  for (const { text: line } of proseLines(text)) {
    if (!line.trimStart().startsWith('|')) {
      current = undefined;
      continue;
    }
    const cells = line
      .trim()
      .replace(/^\||\|$/g, '')
      .split(/(?<!\\)\|/)
      .map((cell) => cell.trim());
    if (current === undefined) {
      current = [];
      tables.push(current);
      continue; // the header row
    }
    if (cells.every((cell) => /^:?-+:?$/.test(cell))) continue;
    current.push(cells);
  }
  return tables;
}
