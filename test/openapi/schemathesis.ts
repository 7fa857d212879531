/**
 * Runs Schemathesis (PyPI, property-based API testing) against a served OpenAPI document: every
 * operation but the endless SSE stream, its examples, coverage, fuzzing and stateful phases (the
 * stateful one follows the document's links, e.g. increment → view, register → login), and the
 * five response checks the contract promises. Spawned asynchronously: the host under test is a
 * child of this process too and its log pipe must keep draining while Schemathesis runs.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The five response checks of the contract, plus unsupported_method (a method the document does
 * not list must get 405): it found TRACE /api/health answering 404, fixed in src/counter/http-errors.ts.
 */
export const CHECKS = [
  'not_a_server_error',
  'status_code_conformance',
  'content_type_conformance',
  'response_schema_conformance',
  'response_headers_conformance',
  'unsupported_method',
] as const;

/** Examples per operation and phase: enough to find what it found here, small enough for CI (see docs/api.md). */
export const MAX_EXAMPLES = Number(process.env['SCHEMATHESIS_MAX_EXAMPLES'] ?? 10);

/** `text/event-stream` never ends: a client that reads whole bodies cannot test it (test/openapi/document.e2e.test.ts checks its frames). */
export const EXCLUDED_PATHS = ['/api/counter/stream'] as const;

export interface SchemathesisRun {
  code: number | null;
  output: string;
}

export function runSchemathesis(executable: string, baseUrl: string, headers: Record<string, string> = {}, timeoutMs = 240_000): Promise<SchemathesisRun> {
  const args = [
    'run',
    `${baseUrl}/api/openapi.json`,
    '--checks',
    CHECKS.join(','),
    ...EXCLUDED_PATHS.flatMap((path) => ['--exclude-path', path]),
    '--max-examples',
    String(MAX_EXAMPLES),
    '--request-timeout',
    '20',
    '--generation-database',
    'none',
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
