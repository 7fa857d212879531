/**
 * Every repository path written in backticks in README.md and docs/ exists. What counts as one:
 * a word of a code span that starts with a top-level entry of the repository (`src/…`,
 * `docs/bench.md`, `package.json`), trailing `:line` and `#anchor` set aside. Patterns are
 * recognised by their marks and checked for what they promise:
 *   - a glob (`*`, `?`, `{a,b}`) must match at least one file: `host/storage/*\/leases.ts`;
 *   - a placeholder (`<name>`, `YYYY`, `…`, `...`) stands for files to come: the folder before it must exist
 *     (`docs/runs/<date>-<benchmark>.md`, `docs/runs/YYYY-MM-DD-name.md`).
 * Paths that git ignores (`build/`, `data/`, `.env`) are made by running things and are not checked,
 * nor are dated runs (docs/runs/<date>-*.md): records name the files of their day.
 */
import { existsSync, globSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentationFiles, isDatedRun, proseLines, ROOT, readDoc } from './markdown.ts';

/** .gitignore's entries (patterns without negation): what git does not keep. */
const IGNORED = readFileSync(join(ROOT, '.gitignore'), 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line !== '' && !line.startsWith('#') && !line.startsWith('!'));
const TOP_LEVEL = new Set([...readdirSync(ROOT).filter((name) => name !== '.git'), ...IGNORED.map((entry) => entry.replace(/\/$/, '').split('/')[0]!)]);

const GLOB = /[*?{]/;
const PLACEHOLDER = /<[^>]*>|YYYY|…|\.\.\./;

type PathVerdict = 'exists' | 'missing' | 'ignored' | 'pattern-matches' | 'pattern-matches-nothing' | 'placeholder-folder-exists' | 'placeholder-folder-missing';

/** The repository paths among a code span's words, trailing `:line` / `#anchor` and punctuation removed. */
function repositoryPaths(span: string): string[] {
  return span
    .split(/\s+/)
    .map((word) =>
      word
        .replace(/^[("'[]+|[)"',;.\]]+$/g, '')
        .replace(/#.*$/, '')
        .replace(/(:\d+)+$/, ''),
    )
    .filter((word) => {
      const top = word.split('/')[0]!;
      return word !== '' && TOP_LEVEL.has(top) && (word.includes('/') || existsSync(join(ROOT, top)) || IGNORED.includes(word));
    });
}

function isIgnored(path: string): boolean {
  return IGNORED.some((entry) => {
    const bare = entry.replace(/^\//, '').replace(/\/$/, '');
    return path === bare || path.startsWith(`${bare}/`) || path.split('/').includes(bare) || (entry.startsWith('*') && path.endsWith(entry.slice(1)));
  });
}

function verdict(path: string): PathVerdict {
  if (isIgnored(path)) return 'ignored';
  const placeholder = PLACEHOLDER.exec(path);
  if (placeholder) {
    const folder = path.slice(0, placeholder.index).replace(/[^/]*$/, '');
    return existsSync(join(ROOT, folder)) ? 'placeholder-folder-exists' : 'placeholder-folder-missing';
  }
  if (GLOB.test(path)) return globSync(path.replace(/\/$/, ''), { cwd: ROOT }).length > 0 ? 'pattern-matches' : 'pattern-matches-nothing';
  return existsSync(join(ROOT, path)) ? 'exists' : 'missing';
}

describe('repositoryPaths() and verdict()', () => {
  it('takes the rooted words of a span, without line numbers, anchors or punctuation', () => {
    expect(repositoryPaths('node scripts/build.ts --variant all')).toEqual(['scripts/build.ts']);
    expect(repositoryPaths('src/app.ts:42')).toEqual(['src/app.ts']);
    expect(repositoryPaths('docs/auth.md#passkeys')).toEqual(['docs/auth.md']);
    expect(repositoryPaths('wasi:http/proxy')).toEqual([]);
    expect(repositoryPaths('oauth-probe/')).toEqual([]);
    expect(repositoryPaths('package.json')).toEqual(['package.json']);
  });

  it('checks files, globs, placeholders, and leaves ignored paths alone', () => {
    expect(verdict('src/app.ts')).toBe('exists');
    expect(verdict('src/no-such-file.ts')).toBe('missing');
    expect(verdict('host/storage/*/leases.ts')).toBe('pattern-matches');
    expect(verdict('docs/bench-*.md')).toBe('pattern-matches-nothing');
    expect(verdict('docs/runs/<date>-<benchmark>.md')).toBe('placeholder-folder-exists');
    expect(verdict('docs/nothing/<name>.md')).toBe('placeholder-folder-missing');
    expect(verdict('build/hosted/transpiled')).toBe('ignored');
    expect(verdict('src/web/generated/static-assets.ts')).toBe('ignored');
  });
});

describe('repository paths in the documentation', () => {
  const files = documentationFiles().filter((file) => !isDatedRun(file));

  it.each(files)('%s: every path in backticks exists (globs match, placeholders sit in a folder that does)', (file) => {
    const wrong: string[] = [];
    for (const { line, text } of proseLines(readDoc(file))) {
      for (const [, span = ''] of text.matchAll(/`([^`]+)`/g)) {
        for (const path of repositoryPaths(span)) {
          const found = verdict(path);
          if (found === 'missing' || found === 'pattern-matches-nothing' || found === 'placeholder-folder-missing') wrong.push(`${file}:${line}: ${path} (${found})`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('checks a real number of paths (the reader finds them)', () => {
    const total = files.reduce(
      (sum, file) => sum + proseLines(readDoc(file)).reduce((n, { text }) => n + [...text.matchAll(/`([^`]+)`/g)].flatMap(([, span = '']) => repositoryPaths(span)).length, 0),
      0,
    );
    expect(total).toBeGreaterThan(300);
  });
});
