/**
 * The OpenAPI document against the real service, by a fuzzer no one here wrote: Schemathesis runs
 * every operation with every check it has (`--checks all`: response conformance, positive data
 * accepted, negative data rejected, SSE events, stateful links), on the Node host (SQLite) and
 * under `wasmtime serve`. OAuth runs with the development callback bypass
 * (start → our callback, no provider) and storage status with an operator token, so neither
 * answers only 401/404. Zero failures expected.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOAuthFixture, type OAuthFixture } from '../support/oauth-provider/fixture.ts';
import { freePort, ROOT, startHost, type HostProcess } from '../../harness/host-process.ts';
import { requireTool } from '../../harness/tools.ts';
import { prepareWasmtimeComponent, startWasmtime, type WasmtimeProcess } from '../../harness/wasmtime-process.ts';
import { OPERATOR_ENV, operatorToken } from '../oauth-flow/support.ts';
import { OPERATIONS } from '../../src/openapi/contracts.ts';
import { MAIL_PATHS } from '../../src/auth/rest/mail-routes.ts';
import { EMAIL_CHANGE_PATHS } from '../../src/auth/rest/email-change-routes.ts';
import { runSchemathesis, summary } from './schemathesis.ts';

const schemathesis = requireTool('schemathesis');
const wasmtime = requireTool('wasmtime');
// Schemathesis leaves out the operation that serves the document it loaded (GET /api/openapi.json).
const TESTED = OPERATIONS.filter((op) => op.path !== '/api/openapi.json').length;

async function serviceEnv(port: number): Promise<{ fixture: OAuthFixture; env: Record<string, string> }> {
  const fixture = await startOAuthFixture(`http://127.0.0.1:${port}`);
  return { fixture, env: { ...fixture.env, ...OPERATOR_ENV, AUTH_OAUTH_DEVELOPMENT_CALLBACK_BYPASS: 'true' } };
}

/**
 * The operations whose only answer without a session is 401, as Schemathesis' warning lists them:
 * the session and account routes, resending the verification link, cancelling a change of address,
 * the signed-in passkey routes (adding one, the list, rename, remove), the sign-in method list and
 * "Link <provider>". Not the account page's forms (changing the password or the address, signing a
 * session out, "sign out everywhere", the delete button, removing a sign-in method): a form post
 * without a session goes back to its page (303), as a browser's would.
 */
const SESSION_ONLY_PATHS = new Set<string>([MAIL_PATHS.resend, EMAIL_CHANGE_PATHS.cancel, '/api/auth/sign-in-methods']);
const FORM_PAGE_PATHS = new Set<string>([
  MAIL_PATHS.change,
  EMAIL_CHANGE_PATHS.change,
  '/api/auth/sessions/revoke-all',
  '/api/auth/sessions/{id}/revoke',
  '/api/auth/account/delete',
  '/api/auth/sign-in-methods/remove',
]);
const SESSION_OPERATIONS = OPERATIONS.filter(
  (op) =>
    !FORM_PAGE_PATHS.has(op.path) &&
    (op.path.startsWith('/api/auth/sessions') ||
      op.path.startsWith('/api/auth/account') ||
      SESSION_ONLY_PATHS.has(op.path) ||
      (op.path.startsWith('/api/auth/passkeys') && op.security === 'session') ||
      (op.path.startsWith('/api/auth/oauth') && op.security === 'session')),
)
  .map((op) => `${op.method.toUpperCase()} ${op.path}`)
  .sort();
function unauthenticatedOperations(output: string): string[] {
  const section = /401 Unauthorized \(\d+ operations?\):\n((?:\s+- .+\n)+)/.exec(output)?.[1] ?? '';
  return [...section.matchAll(/- (\S+ \S+)/g)].map(([, op]) => op!).sort();
}

const COMMITTED = readFileSync(join(ROOT, 'docs', 'openapi.json'), 'utf8');

/** The host serves the committed document, and the stream it documents speaks the documented frames. */
async function expectServedContract(baseUrl: string): Promise<void> {
  const served = await fetch(`${baseUrl}/api/openapi.json`);
  expect(served.headers.get('content-type')).toBe('application/json');
  expect(await served.text()).toBe(COMMITTED);
  const docs = await fetch(`${baseUrl}/api/docs`);
  expect(docs.status).toBe(200);
  expect(docs.headers.get('content-security-policy')).toContain("default-src 'none'");
  await fetch(`${baseUrl}/api/counter/increment`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"amount":1}' });
  const abort = new AbortController();
  const stream = await fetch(`${baseUrl}/api/counter/stream`, { signal: abort.signal });
  expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const reader = stream.body!.getReader();
  let text = '';
  while (!/\n\n(id: \d+\nevent: counter\ndata: \{.*\}\n\n)/.test(text)) text += new TextDecoder().decode((await reader.read()).value);
  abort.abort();
  expect(text).toMatch(/^retry: 1000\n\nid: \d+\nevent: counter\ndata: \{"view":\{"count":/);
}

/**
 * Exit 0, no failure, every operation tested, links followed, and no 5xx logged by the service:
 * `not_a_server_error` accepts a 5xx the document lists, the log does not.
 */
async function expectCleanRun(baseUrl: string, logs: () => Array<Record<string, unknown>>): Promise<void> {
  const run = await runSchemathesis(schemathesis!.path, baseUrl, { Authorization: `Bearer ${await operatorToken()}` });
  const result = summary(run.output);
  expect(run.code, run.output).toBe(0);
  expect(run.output).not.toMatch(/\b\d+ failed\b|errored/i);
  // Schemathesis has no session (login would revoke one it was given, as it must), so the
  // session routes answer only their documented 401: the one warning allowed, and only for them.
  expect(unauthenticatedOperations(run.output), run.output).toEqual(SESSION_OPERATIONS);
  expect(result.tested, run.output).toBe(TESTED);
  expect(result.passed, run.output).toBe(result.generated);
  expect(result.generated).toBeGreaterThan(TESTED * 5);
  expect(result.linksCovered, run.output).toBeGreaterThan(0);
  expect(logs().filter((line) => typeof line['status'] === 'number' && line['status'] >= 500)).toEqual([]);
}

describe.skipIf(!schemathesis)('Schemathesis against the Node host (SQLite)', () => {
  let host: HostProcess;
  let fixture: OAuthFixture;
  beforeAll(async () => {
    const port = await freePort();
    const service = await serviceEnv(port);
    fixture = service.fixture;
    host = await startHost({ port, env: service.env, timeoutMs: 60_000 });
  }, 90_000);
  afterAll(async () => {
    await host?.stop();
    await fixture?.provider.stop();
  });

  it('serves docs/openapi.json and the documented SSE frames', async () => {
    await expectServedContract(host.url);
  });

  it('finds no failure on any operation', async () => {
    await expectCleanRun(host.url, () => host.logs());
  }, 960_000);
});

describe.skipIf(!schemathesis || !wasmtime)('Schemathesis against wasmtime serve', () => {
  let server: WasmtimeProcess;
  let fixture: OAuthFixture;
  beforeAll(async () => {
    prepareWasmtimeComponent(wasmtime!.path);
    const port = await freePort();
    const service = await serviceEnv(port);
    fixture = service.fixture;
    server = await startWasmtime({ port, guestEnv: service.env }, wasmtime!.path);
  }, 600_000);
  afterAll(async () => {
    await server?.stop();
    await fixture?.provider.stop();
  });

  it('serves docs/openapi.json and the documented SSE frames', async () => {
    await expectServedContract(server.url);
  });

  it('finds no failure on any operation', async () => {
    await expectCleanRun(server.url, () => server.logs());
  }, 960_000);
});
