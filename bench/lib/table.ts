/**
 * How every benchmark writes its results: Markdown tables of formatted numbers, printed and, with
 * `--out <file.md>`, kept as a dated run under docs/runs/ (docs/runs/README.md lists them).
 */
import { writeFileSync } from 'node:fs';

/** A number for a table: `digits` decimals, by default two below 10 and none above; 'n/a' when not finite. */
export const fmt = (n: number, digits?: number): string => (Number.isFinite(n) ? n.toFixed(digits ?? (n < 10 ? 2 : 0)) : 'n/a');

/** A Markdown table; `align` marks each column left ('l') or right ('r', numbers), left by default. */
export function markdownTable(header: readonly string[], rows: ReadonlyArray<readonly (string | number)[]>, align: readonly ('l' | 'r')[] = []): string {
  return [`| ${header.join(' | ')} |`, `|${header.map((_, i) => (align[i] === 'r' ? '---:' : '---')).join('|')}|`, ...rows.map((row) => `| ${row.join(' | ')} |`)].join('\n');
}

/** The `--out` option of every benchmark, for node:util's parseArgs. */
export const OUT_OPTION = { out: { type: 'string' } } as const;

/**
 * Prints a benchmark's report and, when `out` names a file, writes it there under a heading that
 * says what ran and when: the form of docs/runs/<date>-<benchmark>.md.
 */
export function publish(title: string, report: string, out: string | undefined): void {
  console.log(`\n${report}`);
  if (out === undefined) return;
  const command = `node ${process.argv
    .slice(1)
    .map((a) => a.replace(`${process.cwd()}/`, ''))
    .join(' ')}`;
  writeFileSync(out, `# ${title}\n\n\`${command}\`, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC.\n\n${report.trim()}\n`);
  console.log(`written: ${out}`);
}
