/**
 * docs/extending.md stays true: its patches (every ```diff block, section by section) are applied
 * to a copy of the repository, the generators it names are run, and then
 *   - the files each section changed are exactly the files its table lists (a new command touches
 *     those and no others),
 *   - the copy type-checks (src/ and static/), its browser client bundles, Biome accepts the changed
 *     files,
 *   - the example's own tests and the tests of the table and the contract pass in the copy.
 * When a change elsewhere breaks a step, refresh that patch in docs/extending.md: make the change in
 * a copy, `git diff -U1` the files, and paste.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../harness/host-process.ts';
import { buildStaticAssets } from '../../scripts/static-assets.ts';

const DOC = readFileSync(join(ROOT, 'docs', 'extending.md'), 'utf8');
const BIN = join(ROOT, 'node_modules', '.bin');

interface Section {
  name: string;
  patch: string;
  /** the files its table lists, sorted */
  files: string[];
}

/** The text between `<!-- extending:<name> -->` and its closing marker: its patch and its table's files. */
function section(name: string): Section {
  const start = DOC.indexOf(`<!-- extending:${name} -->`);
  const end = DOC.indexOf(`<!-- /extending:${name} -->`);
  if (start < 0 || end < start) throw new Error(`docs/extending.md has no section ${name}`);
  const text = DOC.slice(start, end);
  const patch = [...text.matchAll(/^```diff\n([\s\S]*?)^```$/gm)].map((m) => m[1]).join('');
  const files = text
    .split('\n')
    .filter((line) => /^\| .*\.(ts|tsx|js|json|proto)\b/.test(line))
    .flatMap((line) => [...(line.split('|')[1] ?? '').matchAll(/([\w./-]+\.(?:tsx|ts|json|js|proto))\b/g)].map((m) => m[1]!));
  return { name, patch, files: [...new Set(files)].sort() };
}

function run(cwd: string, command: string, args: string[], timeout = 240_000): string {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', timeout, env: { ...process.env, PATH: `${BIN}:${process.env['PATH']}` } });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status ?? result.signal}):\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

const git = (cwd: string, ...args: string[]) => run(cwd, 'git', ['-c', 'user.name=extending', '-c', 'user.email=extending@example.com', ...args]);

/** The repository's files as they are (tracked and untracked, not ignored), in a git repository of their own. */
function copyOfTheRepository(): string {
  const copy = mkdtempSync(join(tmpdir(), 'extending-'));
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of files) {
    if (!existsSync(join(ROOT, file))) continue; // deleted in the work tree, not yet committed
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    cpSync(join(ROOT, file), join(copy, file));
  }
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
  git(copy, 'init', '-q');
  git(copy, 'add', '-A');
  git(copy, 'commit', '-qm', 'the repository as it is');
  return copy;
}

/** Applies a section's patch and the generators; answers the files it changed, sorted. */
function apply(copy: string, { name, patch }: Section): string[] {
  const file = join(copy, `${name}.patch`);
  writeFileSync(file, patch);
  git(copy, 'apply', '--whitespace=error-all', file);
  rmSync(file);
  if (patch.includes('+++ b/proto/')) run(copy, process.execPath, [join('scripts', 'gen-proto.ts')]);
  run(copy, process.execPath, [join('scripts', 'gen-openapi.ts')]);
  const changed = git(copy, 'status', '--porcelain', '-uall')
    .split('\n')
    .filter(Boolean)
    .map((line) => line.slice(3));
  git(copy, 'add', '-A');
  git(copy, 'commit', '-qm', name);
  return changed.sort();
}

describe('docs/extending.md, applied to a copy of the repository', () => {
  const command = section('command');
  const route = section('route');
  let copy: string | undefined;
  afterAll(() => {
    if (copy) rmSync(copy, { recursive: true, force: true });
  });

  it('has a patch and a file list for adding a command and for adding a route', () => {
    expect(command.files).toContain('src/counter/commands.ts');
    expect(command.patch).toContain('+++ b/src/counter/commands.ts');
    expect(route.files).toContain('src/openapi/contracts.ts');
  });

  it('adds a command and a route touching exactly the files it lists; the copy type-checks and its tests pass', { timeout: 900_000 }, async () => {
    copy = copyOfTheRepository();
    expect(apply(copy, command), 'the files adding the command changed').toEqual(command.files);
    expect(apply(copy, route), 'the files adding the route changed').toEqual(route.files);

    const changed = [...command.files, ...route.files].filter((file) => /\.(ts|tsx)$/.test(file) && !file.startsWith('src/gen/'));
    run(copy, join(BIN, 'biome'), ['ci', '--error-on-warnings', ...changed]);
    // The browser client is derived from the command table: it must still bundle (and the page's assets exist for the type check).
    await buildStaticAssets(copy);
    run(copy, process.execPath, [join(BIN, 'tsc'), '-p', join('src', 'tsconfig.json')], 600_000);
    const tests = [...command.files, ...route.files].filter((file) => file.endsWith('.test.ts'));
    expect(tests).toHaveLength(2);
    const output = run(copy, process.execPath, [join(BIN, 'vitest'), 'run', ...tests, 'src/counter/commands.unit.test.ts', 'src/openapi/'], 600_000);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing the colour codes of the output is the point.
    const plain = output.replace(/\u001b\[[0-9;]*m/g, '');
    // Every file passed: the two the walk-through adds, the command table's and src/openapi/'s.
    expect(plain).toMatch(/Test Files\s+(\d+) passed \(\1\)/);
    expect(plain).toContain('routes.unit.test.ts');
  });
});
