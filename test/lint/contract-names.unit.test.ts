/**
 * The names the host and the guest must agree on (private header fields, the guest environment's
 * APP_* variables) are spelled once, in src/contract/: no string literal or identifier elsewhere in
 * src/, host/ or scripts/ spells one (tests may, as a client or an attacker would). A new private
 * header (x-app-…) or APP_* variable must be added there too.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { GUEST_ENV } from '../../src/contract/environment.ts';
import * as headers from '../../src/contract/headers.ts';

const root = join(import.meta.dirname, '..', '..');
const CONTRACT = join('src', 'contract');
/** Generated or not the project's code. */
const SKIPPED = [join('src', 'gen'), join('src', 'platform', 'bindings'), join('src', 'text', 'gen'), join('src', 'web', 'generated')];

const names: readonly string[] = [...Object.values(GUEST_ENV), ...Object.values(headers)];
/** Any private header or APP_* variable, contract or not, inside a literal. */
const SPELLED = /\b[xX]-[aA][pP][pP]-[a-zA-Z0-9-]+|\bAPP_[A-Z][A-Z0-9_]*\b/;

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f) && !f.startsWith(CONTRACT) && !SKIPPED.some((s) => f.startsWith(s)));
}

/** `file:line text` of every literal or identifier in `text` that spells a contract name. */
function spellings(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    const literal = ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node) || ts.isJsxText(node);
    const spelled = literal ? SPELLED.test(node.text) : ts.isIdentifier(node) && names.includes(node.text);
    if (spelled) found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1} ${node.getText(source)}`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('contract names', () => {
  it('are spelled only in src/contract/ (host, guest and scripts import them from there)', () => {
    const files = ['src', 'host', 'scripts'].flatMap(sources);
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap((file) => spellings(file, readFileSync(join(root, file), 'utf8')))).toEqual([]);
  });

  it('finds a spelled-out name, as a literal or an identifier, and not other names', () => {
    expect(spellings('a.ts', "headers.get('x-app-relay');")).toEqual(["a.ts:1 'x-app-relay'"]);
    const template = 'const x = `APP_NEW=$' + '{env}`;';
    expect(spellings('b.ts', `const env = { APP_RUNTIME: 1 };\n${template}`)).toEqual(['b.ts:1 APP_RUNTIME', 'b.ts:2 `APP_NEW=${']);
    expect(spellings('c.ts', "const APP_ERROR_CODES = ['app_events'];")).toEqual([]);
  });
});
