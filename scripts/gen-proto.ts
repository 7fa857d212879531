/**
 * `npm run gen:proto`: lints proto/ with buf, then generates the TypeScript contract
 * (protoc-gen-es, js + d.ts) into src/gen/.
 * `npm run gen:proto -- --check` generates into a temporary directory and fails (exit 1) when
 * src/gen/ differs, i.e. when the committed generated code is stale.
 *
 * js+dts rather than ts: the generated TypeScript enum is not erasable syntax, which this
 * project's tsconfig (erasableSyntaxOnly) and Node's type stripping reject.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const target = join(root, 'src', 'gen');
const buf = join(root, 'node_modules', '.bin', 'buf');
const check = process.argv.includes('--check');

function run(args: string[]): void {
  execFileSync(buf, args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, PATH: `${join(root, 'node_modules', '.bin')}:${process.env.PATH}` } });
}

function files(dir: string): string[] {
  return existsSync(dir)
    ? readdirSync(dir, { recursive: true, encoding: 'utf8' })
        .filter((f) => statSync(join(dir, f)).isFile())
        .sort()
    : [];
}

run(['lint']);
const out = mkdtempSync(join(tmpdir(), 'gen-proto-'));
try {
  run(['generate', '--template', 'buf.gen.yaml', '-o', out]);
  const generated = join(out, 'src', 'gen');
  if (check) {
    const want = files(generated);
    const have = files(target);
    const stale = [...new Set([...want, ...have])].filter((f) => !want.includes(f) || !have.includes(f) || !readFileSync(join(generated, f)).equals(readFileSync(join(target, f))));
    if (stale.length > 0) {
      console.error(`generated code is stale: ${stale.join(', ')} (run npm run gen:proto)`);
      process.exit(1);
    }
    console.log('src/gen is up to date with proto/');
  } else {
    rmSync(target, { recursive: true, force: true });
    cpSync(generated, target, { recursive: true });
    console.log(`generated ${files(target).join(', ')} into src/gen`);
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
