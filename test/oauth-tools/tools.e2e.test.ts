/**
 * The live OAuth operator tools (preflight, browser smoke, callback and evidence reports) run as an operator runs them — child
 * processes with only their parameters — against the real host and component, with the local
 * OAuth/OIDC test provider standing in for the real providers (and, in the browser smoke, for the
 * operator). Three services: one whose authorization endpoints are configured as external https
 * URLs (preflight only inspects the redirect and never fetches them, so this is the "correct
 * setup" the local provider cannot be: it is http on loopback), one with the development callback
 * bypass on, one wired to the local provider for real logins. Results go to a temporary A11
 * record. Finally every output is searched for the configured secrets.
 */
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_A11_FILE, readA11 } from '../../scripts/oauth/tracker/a11-record.ts';
import { register, sessionIdFrom, uniqueEmail } from '../auth/support.ts';
import { freePort, ROOT, startHost, type HostProcess } from '../../harness/host-process.ts';
import { startOAuthFixture, type OAuthFixture } from '../support/oauth-provider/fixture.ts';
import { followAuthorization } from '../support/oauth-provider/follow-authorization.ts';
import { requireTool } from '../../harness/tools.ts';

const chromium = requireTool('chromium');
/** `npm run auth:token`'s dev key pair for this suite; the host gets its public JWKS. */
const KEY_FILE = join(mkdtempSync(join(tmpdir(), 'tools-e2e-key-')), 'operator-token-dev-key.json');
const authToken = (args: string[]) =>
  spawnSync(process.execPath, [join(ROOT, 'scripts', 'auth-token.ts'), '--key-file', KEY_FILE, ...args], { env: { PATH: process.env.PATH ?? '' }, encoding: 'utf8' }).stdout.trim();
const OPERATOR_JWKS = authToken(['--print-jwks']);
const USER_EMAIL = 'person@example.test';
const HTTPS_ENDPOINTS = {
  AUTH_PROVIDER_A_AUTHORIZATION_URL: 'https://accounts.provider-a.example/o/oauth2/v2/auth',
  AUTH_PROVIDER_B_AUTHORIZATION_URL: 'https://www.provider-b.example/v21.0/dialog/oauth',
  AUTH_PROVIDER_C_AUTHORIZATION_URL: 'https://appleid.provider-c.example/auth/authorize',
};

interface Run {
  tool: string;
  code: number | null;
  out: string;
  lines: string[];
  /** the email the run was allowed to print */
  expectedEmail: string | undefined;
}
const runs: Run[] = [];
const secrets: string[] = [String((JSON.parse(readFileSync(KEY_FILE, 'utf8')) as { d: string }).d)];
const tracker = join(mkdtempSync(join(tmpdir(), 'a11-tools-')), 'A11.json');
copyFileSync(DEFAULT_A11_FILE, tracker);

/** `npm run oauth:<tool>` with exactly these parameters, from an empty directory (no .env). */
function runTool(tool: string, env: Record<string, string>): Promise<Run> {
  const cwd = mkdtempSync(join(tmpdir(), 'oauth-tool-'));
  const child = spawn(process.execPath, [join(ROOT, 'scripts', 'oauth', `${tool}.ts`)], {
    cwd,
    env: { PATH: process.env.PATH ?? '', TRACKER_A11_FILE: tracker, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      const run = { tool, code, out, lines: out.split('\n'), expectedEmail: env.EXPECTED_EMAIL };
      runs.push(run);
      resolve(run);
    }),
  );
}

function mintToken(): string {
  const token = authToken(['--sub', 'tools-e2e-operator']);
  secrets.push(token);
  return token;
}

const fails = (run: Run) => run.lines.filter((l) => l.startsWith('FAIL'));
const has = (run: Run, outcome: 'PASS' | 'FAIL', scope: string, text: string) => run.lines.some((l) => l.startsWith(outcome) && l.includes(scope) && l.includes(text));

interface Service {
  host: HostProcess;
  fixture: OAuthFixture;
  base: string;
  /** what the operator environment holds: the service's OAuth variables and the shared parameters */
  operator: Record<string, string>;
}

async function startService(extra: Record<string, string> = {}): Promise<Service> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const fixture = await startOAuthFixture(base);
  secrets.push(...fixture.secrets);
  const host = await startHost({ port, env: { ...fixture.env, AUTH_SYSTEM_TOKEN_JWKS: OPERATOR_JWKS, ...extra } });
  return { host, fixture, base, operator: { ...fixture.env, ...extra, BASE_URL: base, AUTH_SYSTEM_ACCESS_TOKEN: mintToken() } };
}

async function stopService(service: Service | undefined): Promise<void> {
  await service?.host.stop();
  await service?.fixture.provider.stop();
}

/** The test plays the browser: start, the provider approves, the callback answers with the session cookie. */
async function completeLogin(base: string, provider: string): Promise<string> {
  const start = await fetch(`${base}/api/auth/oauth/${provider}/start?next=%2Fdashboard`, { redirect: 'manual' });
  expect(start.status).toBe(302);
  // The browser-binding cookie /start set: the callback is refused without it.
  const cookie = start.headers
    .getSetCookie()
    .find((c) => c.startsWith('wasi_oauth_binding='))!
    .split(';')[0]!;
  const callback = await followAuthorization(start.headers.get('location')!);
  const response =
    callback.method === 'GET'
      ? await fetch(`${callback.target}?${new URLSearchParams(callback.params)}`, { redirect: 'manual', headers: { cookie } })
      : await fetch(callback.target, {
          method: 'POST',
          redirect: 'manual',
          headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(callback.params).toString(),
        });
  const sessionId = sessionIdFrom(response);
  expect(sessionId).toBeTruthy();
  secrets.push(sessionId!);
  return sessionId!;
}

describe('every tool: parameters', () => {
  it.each([
    ['preflight', {}, 'BASE_URL is missing'],
    ['browser-smoke', { BASE_URL: 'https://auth.example.com/app' }, 'BASE_URL must be an origin only'],
    // The operator token and session cookie never travel over non-loopback http
    ['callback-evidence', { BASE_URL: 'http://auth.example.com', AUTH_SYSTEM_ACCESS_TOKEN: 'x', SESSION_COOKIE: 'x' }, 'BASE_URL must be https unless it is a loopback address'],
    ['callback-evidence', { BASE_URL: 'https://auth.example.com', AUTH_SYSTEM_ACCESS_TOKEN: 'x' }, 'SESSION_COOKIE is missing'],
    ['evidence-report', { BASE_URL: 'https://auth.example.com', AUTH_SYSTEM_ACCESS_TOKEN: 'x' }, 'OAUTH_EVIDENCE_MODE is missing'],
    ['evidence-report', { BASE_URL: 'https://auth.example.com', OAUTH_EVIDENCE_MODE: 'callback' }, 'AUTH_SYSTEM_ACCESS_TOKEN is missing'],
  ])('%s names a missing or malformed parameter and exits 2', async (tool, env, expected) => {
    const run = await runTool(tool, env);
    expect(fails(run).some((l) => l.startsWith('FAIL  parameters') && l.includes(expected))).toBe(true);
    expect(run.code).toBe(2);
  });
});

describe('oauth:preflight', () => {
  let https: Service | undefined;
  let bypass: Service | undefined;
  let local: Service | undefined;
  beforeAll(async () => {
    [https, bypass, local] = await Promise.all([startService(HTTPS_ENDPOINTS), startService({ AUTH_OAUTH_DEVELOPMENT_CALLBACK_BYPASS: 'true' }), startService()]);
  });
  afterAll(async () => {
    await Promise.all([stopService(https), stopService(bypass), stopService(local)]);
  });

  it('passes against a correct setup: external https endpoints, every parameter, storage shows the states', async () => {
    const run = await runTool('preflight', https!.operator);
    expect(fails(run)).toEqual([]);
    for (const [p, host] of [
      ['provider_a', 'accounts.provider-a.example'],
      ['provider_b', 'www.provider-b.example'],
      ['provider_c', 'appleid.provider-c.example'],
    ] as const) {
      expect(has(run, 'PASS', p, `/api/auth/capabilities lists ${p}`)).toBe(true);
      expect(has(run, 'PASS', p, 'the redirect is not the development callback bypass URL')).toBe(true);
      expect(has(run, 'PASS', p, `the authorization endpoint uses https (https://${host})`)).toBe(true);
      expect(has(run, 'PASS', p, `the authorization endpoint is on an external host (${host})`)).toBe(true);
      expect(has(run, 'PASS', p, 'response_type is code')).toBe(true);
      expect(has(run, 'PASS', p, `client_id equals AUTH_${p.toUpperCase()}_CLIENT_ID`)).toBe(true);
      expect(has(run, 'PASS', p, `redirect_uri equals BASE_URL + /api/auth/oauth/${p}/callback`)).toBe(true);
      expect(has(run, 'PASS', p, 'scope is')).toBe(true);
      expect(has(run, 'PASS', p, 'state is present')).toBe(true);
      expect(has(run, 'PASS', p, 'nonce is present')).toBe(true);
    }
    expect(has(run, 'PASS', 'provider_a', 'PKCE code_challenge is present with method S256')).toBe(true);
    expect(has(run, 'PASS', 'shared', 'storage status')).toBe(true);
    expect(run.out).toContain('it does not replace the browser test');
    expect(run.code).toBe(0);

    // Recorded for A11, with the endpoint origin; still not live evidence (the base is loopback).
    const recorded = readA11(tracker).results.filter((r) => r.check === 'preflight' && r.baseUrl === https!.base);
    expect(recorded.map((r) => [r.provider, r.passed, r.authorizationEndpoint])).toEqual([
      ['provider_a', true, 'https://accounts.provider-a.example'],
      ['provider_b', true, 'https://www.provider-b.example'],
      ['provider_c', true, 'https://appleid.provider-c.example'],
    ]);
  });

  it('fails a client_id that differs from the configured one', async () => {
    const run = await runTool('preflight', { ...https!.operator, OAUTH_PROVIDERS: 'provider_a', AUTH_PROVIDER_A_CLIENT_ID: 'another-client' });
    expect(fails(run).map((l) => l.replace(/\s+/g, ' '))).toEqual(['FAIL provider_a client_id differs from AUTH_PROVIDER_A_CLIENT_ID']);
    expect(run.code).toBe(1);
  });

  it('rejects the development callback bypass URL', async () => {
    const run = await runTool('preflight', { ...bypass!.operator, OAUTH_PROVIDERS: 'provider_a' });
    expect(has(run, 'FAIL', 'provider_a', 'that is the development callback bypass (AUTH_OAUTH_DEVELOPMENT_CALLBACK_BYPASS), never valid for live verification')).toBe(true);
    expect(run.code).toBe(1);
    expect(
      readA11(tracker)
        .results.filter((r) => r.baseUrl === bypass!.base)
        .map((r) => [r.check, r.provider, r.passed]),
    ).toEqual([['preflight', 'provider_a', false]]);
  });

  it('rejects an http loopback authorization endpoint (the local test provider)', async () => {
    const run = await runTool('preflight', { ...local!.operator, OAUTH_PROVIDERS: 'provider_b' });
    const origin = local!.fixture.provider.url;
    expect(fails(run).map((l) => l.replace(/\s+/g, ' '))).toEqual([
      `FAIL provider_b the authorization endpoint must use https (it is ${origin})`,
      'FAIL provider_b the authorization endpoint must be an external host, not loopback, an IP address or a single label (it is 127.0.0.1)',
    ]);
    expect(run.code).toBe(1);
  });
});

describe('after a completed login', () => {
  let local: Service | undefined;
  beforeAll(async () => {
    local = await startService();
  });
  afterAll(() => stopService(local));

  it('oauth:callback-evidence passes with the session cookie in each accepted form, and oauth:evidence-report prints the counts', async () => {
    const sessionId = await completeLogin(local!.base, 'provider_b');
    const params = { ...local!.operator, OAUTH_PROVIDERS: 'provider_b', EXPECTED_EMAIL: USER_EMAIL };
    for (const cookie of [sessionId, `wasi_auth_dev_session=${sessionId}`, `theme=dark; wasi_auth_dev_session=${sessionId}`]) {
      const run = await runTool('callback-evidence', { ...params, SESSION_COOKIE: cookie });
      expect(fails(run)).toEqual([]);
      for (const text of [
        '/api/auth/session reports an authenticated session (aal1, oauth:provider_b)',
        'the session was issued by the provider_b sign-in',
        `the session email equals EXPECTED_EMAIL (${USER_EMAIL})`,
        '/dashboard answers 200 with the session cookie',
        'storage shows auth_external_identity_linked (count 1)',
        'storage shows auth_session_issued (count 1)',
        'auth_projection checkpoint',
      ])
        expect(has(run, 'PASS', 'provider_b', text), text).toBe(true);
      expect(run.code).toBe(0);
    }

    const report = await runTool('evidence-report', { ...local!.operator, OAUTH_PROVIDERS: 'provider_b', OAUTH_EVIDENCE_MODE: 'callback' });
    expect(fails(report)).toEqual([]);
    expect(report.out).toContain('OAuth evidence report (callback mode)');
    expect(report.lines.map((l) => l.trim().replace(/\s+/g, ' '))).toEqual(expect.arrayContaining(['auth_external_identity_linked 1', 'auth_session_issued 1']));
    expect(report.out).toMatch(/projection: auth_projection checkpoint \d+ \(latest sequence \d+\)/);
    expect(report.code).toBe(0);
    const preflightMode = await runTool('evidence-report', { ...local!.operator, OAUTH_EVIDENCE_MODE: 'preflight' });
    expect(fails(preflightMode)).toEqual([]);
    expect(preflightMode.code).toBe(0);
    // deployment-wide counts are one provider's evidence only when the operator names that provider alone
    const unnamed = await runTool('evidence-report', { ...local!.operator, OAUTH_EVIDENCE_MODE: 'callback' });
    expect(unnamed.code).toBe(0);
    expect(unnamed.out).toContain('not recorded for tracker A11: set OAUTH_PROVIDERS to the one provider whose login this evidence follows');

    const recorded = readA11(tracker).results.filter((r) => r.baseUrl === local!.base);
    expect(recorded.filter((r) => r.check === 'callback').map((r) => [r.provider, r.passed])).toEqual([
      ['provider_b', true],
      ['provider_b', true],
      ['provider_b', true],
    ]);
    expect(recorded.filter((r) => r.check === 'evidence').map((r) => [r.provider, r.passed])).toEqual([['provider_b', true]]);
  });

  it('oauth:callback-evidence fails another email, a password session, and a cookie that is no session', async () => {
    const sessionId = await completeLogin(local!.base, 'provider_a');
    const wrong = await runTool('callback-evidence', { ...local!.operator, OAUTH_PROVIDERS: 'provider_a', SESSION_COOKIE: sessionId, EXPECTED_EMAIL: 'someone.else@example.test' });
    expect(fails(wrong).map((l) => l.replace(/\s+/g, ' '))).toEqual(['FAIL provider_a the session email differs from EXPECTED_EMAIL']);
    expect(wrong.code).toBe(1);

    const passwordSession = (await register(local!.base, uniqueEmail('tools'))).sessionId;
    secrets.push(passwordSession);
    const password = await runTool('callback-evidence', { ...local!.operator, OAUTH_PROVIDERS: 'provider_a', SESSION_COOKIE: passwordSession });
    expect(has(password, 'FAIL', 'provider_a', 'the session was not issued by a sign-in of provider_a (method password)')).toBe(true);
    expect(password.code).toBe(1);

    const unknownSession = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');
    secrets.push(unknownSession);
    const none = await runTool('callback-evidence', { ...local!.operator, OAUTH_PROVIDERS: 'provider_a', SESSION_COOKIE: unknownSession });
    expect(has(none, 'FAIL', 'provider_a', '/api/auth/session reports no authenticated session for this cookie')).toBe(true);
    expect(has(none, 'FAIL', 'provider_a', '/dashboard redirected to /login')).toBe(true);
    expect(none.code).toBe(1);
  });
});

describe.skipIf(!chromium)('oauth:browser-smoke (headless, the test provider stands in for the operator)', () => {
  let local: Service | undefined;
  let bypass: Service | undefined;
  beforeAll(async () => {
    [local, bypass] = await Promise.all([startService(), startService({ AUTH_OAUTH_DEVELOPMENT_CALLBACK_BYPASS: 'true' })]);
  });
  afterAll(() => Promise.all([stopService(local), stopService(bypass)]));
  const browserEnv = () => ({ OAUTH_BROWSER_HEADLESS: 'true', CHROMIUM: chromium!.path, OAUTH_BROWSER_TIMEOUT_SECONDS: '90' });

  it('logs in through provider_a (query) and provider_c (form_post), checks session and storage, and the replay gets 409', async () => {
    const run = await runTool('browser-smoke', { ...local!.operator, ...browserEnv(), OAUTH_PROVIDERS: 'provider_a,provider_c', EXPECTED_EMAIL: USER_EMAIL });
    expect(fails(run)).toEqual([]);
    for (const [p, how] of [
      ['provider_a', 'GET'],
      ['provider_c', 'POST, form_post'],
    ] as const) {
      for (const text of [
        '/login shows exactly the providers of /api/auth/capabilities (provider_a, provider_b, provider_c)',
        `clicked the ${p} button on /login`,
        `the login went to the provider's authorization endpoint (${local!.fixture.provider.url})`,
        'the browser came back to /dashboard',
        `the provider returned to the callback (${how})`,
        'captured the wasi_auth_dev_session cookie (HttpOnly true, SameSite Lax, Secure false; value not printed)',
        `the session was issued by the ${p} sign-in`,
        `the session email equals EXPECTED_EMAIL (${USER_EMAIL})`,
        '/dashboard answers 200 with the session cookie',
        'storage shows auth_session_issued went up',
        'storage shows auth_external_identity_linked',
        'auth_projection checkpoint moved',
        'replaying the exact callback request (JSON mode) answers 409 conflict',
      ])
        expect(has(run, 'PASS', p, text), `${p}: ${text}`).toBe(true);
    }
    expect(run.code).toBe(0);
    const recorded = readA11(tracker).results.filter((r) => r.check === 'browser' && r.baseUrl === local!.base);
    expect(recorded.map((r) => [r.provider, r.passed, r.authorizationEndpoint])).toEqual([
      ['provider_a', true, local!.fixture.provider.url],
      ['provider_c', true, local!.fixture.provider.url],
    ]);
  }, 240_000);

  it('fails when the login never leaves the service (development callback bypass)', async () => {
    const run = await runTool('browser-smoke', { ...bypass!.operator, ...browserEnv(), OAUTH_PROVIDERS: 'provider_a' });
    expect(has(run, 'FAIL', 'provider_a', 'the login never left the service: the development callback bypass is on')).toBe(true);
    expect(run.code).toBe(1);
  }, 120_000);
});

describe('tracker A11 after these runs', () => {
  it('still refuses done: every recorded result is from a loopback base URL, none is live evidence', () => {
    const result = spawnSync(process.execPath, [join(ROOT, 'scripts', 'oauth', 'tracker-a11.ts'), 'done'], {
      env: { PATH: process.env.PATH ?? '', TRACKER_A11_FILE: tracker },
      encoding: 'utf8',
    });
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('REFUSED  A11 stays operator_pending');
    expect(result.stdout).toContain('does not count: its base URL must use https (not a real deployment)');
    expect(readA11(tracker).state).toBe('operator_pending');
  });
});

// Last (tests in a file run in order): the whole point of the tools.
describe('every output of every tool above', () => {
  it('holds no secret, token, session id, random-looking value or unexpected email', () => {
    expect(runs.length).toBeGreaterThan(10);
    expect(secrets.length).toBeGreaterThan(10);
    // Nothing secret in any output of any tool, passing or failing: configured secrets (client
    // secrets, provider_c's private key), the token secret, every token and session id used.
    for (const run of runs) {
      for (const secret of secrets) expect(run.out, `${run.tool} printed a secret`).not.toContain(secret);
      // nor anything that looks like a random credential (state, nonce, code, session id: base64url)
      const randomLooking = run.out.match(/[A-Za-z0-9_-]{32,}/g)?.filter((t) => /[a-z]/.test(t) && /[A-Z]/.test(t) && /\d/.test(t)) ?? [];
      expect(randomLooking, `${run.tool} printed a random-looking value`).toEqual([]);
      // and no email but the one the run was given as EXPECTED_EMAIL
      const emails = run.out.match(/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g) ?? [];
      expect(
        emails.filter((e) => e !== run.expectedEmail),
        `${run.tool} printed an email`,
      ).toEqual([]);
    }
  });
});
