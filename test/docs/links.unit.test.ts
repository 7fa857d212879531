/**
 * Every relative link of README.md and docs/**\/*.md points at a file that exists and, with a
 * `#fragment`, at a heading of that file (GitHub's anchors). Also: the docs index lists every page.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchors, documentationFiles, links, ROOT, readDoc, slug } from './markdown.ts';

describe('slug()', () => {
  it('follows GitHub: lower case, punctuation dropped except - and _, spaces to -', () => {
    expect(slug('Worker threads (`--workers`)')).toBe('worker-threads---workers');
    expect(slug('Reset: `npm run reset`')).toBe('reset-npm-run-reset');
    expect(slug('Operator tokens, in detail')).toBe('operator-tokens-in-detail');
    expect(slug('Code map (`src/auth/oauth/`)')).toBe('code-map-srcauthoauth');
    expect(slug('The `wasi_http` adapter: **fast** path')).toBe('the-wasi_http-adapter-fast-path');
    expect(slug('Instance reuse: the default is 128')).toBe('instance-reuse-the-default-is-128');
  });
});

describe('anchors()', () => {
  it('numbers repeated headings -1, -2 and ignores headings inside code blocks', () => {
    const text = ['# Tests', '## Tests', '```sh', '# not a heading', '```', '### Tests', '## Tests-1'].join('\n');
    expect([...anchors(text)]).toEqual(['tests', 'tests-1', 'tests-2', 'tests-1-1']);
  });
});

interface Broken {
  file: string;
  line: number;
  target: string;
  why: string;
}

function check(file: string): { checked: number; broken: Broken[] } {
  const broken: Broken[] = [];
  let checked = 0;
  for (const { line, target } of links(readDoc(file))) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:, …
    checked++;
    const [pathPart = '', fragment] = target.split('#', 2);
    const path = pathPart === '' ? file : normalize(join(dirname(file), decodeURIComponent(pathPart)));
    if (relative(ROOT, join(ROOT, path)).startsWith('..')) {
      broken.push({ file, line, target, why: 'leaves the repository' });
      continue;
    }
    if (!existsSync(join(ROOT, path))) {
      broken.push({ file, line, target, why: `${path} does not exist` });
      continue;
    }
    if (fragment === undefined || fragment === '') continue;
    if (!path.endsWith('.md') || statSync(join(ROOT, path)).isDirectory()) {
      broken.push({ file, line, target, why: `#${fragment} on a file that is not Markdown` });
      continue;
    }
    if (!anchors(readDoc(path)).has(decodeURIComponent(fragment))) {
      broken.push({ file, line, target, why: `${path} has no heading #${fragment}` });
    }
  }
  return { checked, broken };
}

describe('documentation links', () => {
  const files = documentationFiles();

  it('finds the README and the docs pages', () => {
    expect(files).toContain('README.md');
    expect(files).toContain('docs/README.md');
    expect(files.length).toBeGreaterThan(15);
  });

  it.each(files)('%s: every relative link and anchor resolves', (file) => {
    const { broken } = check(file);
    expect(broken).toEqual([]);
  });

  it('checks a real number of links (the parser finds them)', () => {
    const total = files.reduce((sum, file) => sum + check(file).checked, 0);
    expect(total).toBeGreaterThan(100);
    expect(check('README.md').checked).toBeGreaterThan(15);
  });

  it('docs/README.md links every page under docs/, and README.md links docs/README.md', () => {
    const index = new Set(links(readDoc('docs/README.md')).map(({ target }) => normalize(join('docs', target.split('#')[0] ?? ''))));
    const pages = files.filter((file) => file.startsWith('docs/') && file !== 'docs/README.md');
    expect(pages.filter((page) => !index.has(page))).toEqual([]);
    expect(links(readDoc('README.md')).map(({ target }) => target)).toContain('docs/README.md');
  });
});
