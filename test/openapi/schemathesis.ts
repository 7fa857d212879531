/**
 * Runs Schemathesis (PyPI, property-based API testing) against a served OpenAPI document: every
 * operation (the endless SSE stream read up to its first event), its examples, coverage, fuzzing
 * and stateful phases (the stateful one follows the document's links, e.g. increment → view,
 * register → login), and every check it has: response conformance, positive data accepted,
 * negative data rejected, SSE events against the document's `itemSchema`, links. Spawned asynchronously: the host under test is a
 * child of this process too and its log pipe must keep draining while Schemathesis runs.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The configuration: 413, 414 and 431 count as rejections; how much of the endless stream to read. */
export const CONFIG_FILE = join(import.meta.dirname, 'schemathesis.toml');

/** Examples per operation and phase: enough to find what it found here, small enough for CI (see docs/api.md). */
export const MAX_EXAMPLES = Number(process.env['SCHEMATHESIS_MAX_EXAMPLES'] ?? 10);

/** The same cases on every run (a failure reproduces), unless a deeper local search asks for another seed. */
export const SEED = Number(process.env['SCHEMATHESIS_SEED'] ?? 20_261_126);

export interface SchemathesisRun {
  code: number | null;
  output: string;
}

/**
 * `timeoutMs` guards against a run that hangs, not how fast one is: every phase over 40 operations
 * took 6 to 8 minutes on the shared 2-core machine at load average 27.
 */
export function runSchemathesis(executable: string, baseUrl: string, headers: Record<string, string> = {}, timeoutMs = 900_000): Promise<SchemathesisRun> {
  const args = [
    '--config-file',
    CONFIG_FILE,
    'run',
    `${baseUrl}/api/openapi.json`,
    '--checks',
    'all',
    '--seed',
    String(SEED),
    '--generation-deterministic',
    '--max-examples',
    String(MAX_EXAMPLES),
    '--request-timeout',
    '20',
    '--no-color',
    ...Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]),
  ];
  // Its own scratch directory as the working directory: nothing lands in the repository.
  const cwd = mkdtempSync(join(tmpdir(), 'schemathesis-'));
  return new Promise((resolve, reject) => {
    const child = spawn(executable, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** What a passing run must show: no failure, every selected operation tested, links followed. */
export function summary(output: string): { tested: number; generated: number; passed: number; linksCovered: number } {
  const number = (re: RegExp) => Number(re.exec(output)?.[1] ?? NaN);
  return {
    tested: number(/Tested:\s+(\d+)/),
    generated: number(/(\d+) generated/),
    passed: number(/generated, (\d+) passed/),
    linksCovered: number(/API Links:\s+(\d+) covered/),
  };
}
