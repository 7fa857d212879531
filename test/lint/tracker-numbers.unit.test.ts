/**
 * The repository speaks of itself: no comment, test name or page cites the number of an issue,
 * finding or ticket of a tracker that is not in the repository. Such a number tells a new reader
 * nothing; the text says what the code does and why instead. Dated run records (docs/runs/) keep
 * their words as printed, and generated files are not written by hand.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

/** A tracker citation: the word, an optional `#`, a number. */
const TRACKER_NUMBER = /\b(?:issue|finding|ticket)s? ?#?\d+/i;

/** Not written by hand, records kept as they were printed, and this file (its examples are citations). */
const EXEMPT = [
  /^test\/lint\/tracker-numbers\.unit\.test\.ts$/,
  /^docs\/runs\//,
  /^docs\/tracker\//,
  /^docs\/openapi\.json$/,
  /^src\/gen\//,
  /^src\/text\/gen\//,
  /^src\/platform\/bindings\//,
  /^wit\/deps\//,
  /^package-lock\.json$/,
];
const TEXT = /\.(ts|tsx|js|mjs|md|wit|proto|json|jsonc|toml|ya?ml|zig|css|html)$|^\.ci\/|^\.env\.example$/;

function trackedTextFiles(): string[] {
  return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((path) => path !== '' && TEXT.test(path) && !EXEMPT.some((rule) => rule.test(path)));
}

describe('tracker numbers', () => {
  it('finds a citation where there is one', () => {
    for (const text of ['issue 15', 'Issue 14 finding 7', 'findings 6, 8', 'ticket #42', 'issues 3']) expect(text).toMatch(TRACKER_NUMBER);
    for (const text of ['UTS #46', 'an issue with 3 hosts', 'tissue 4']) expect(text).not.toMatch(TRACKER_NUMBER);
  });

  it('are cited nowhere in code, tests or docs', () => {
    const files = trackedTextFiles();
    expect(files.length).toBeGreaterThan(100);
    const hits = files.flatMap((path) =>
      readFileSync(join(root, path), 'utf8')
        .split('\n')
        .flatMap((line, i) => (TRACKER_NUMBER.test(line) ? [`${path}:${i + 1}: ${line.trim().slice(0, 120)}`] : [])),
    );
    expect(hits).toEqual([]);
  });
});
