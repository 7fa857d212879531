/**
 * Helpers of the OAuth flow suites: the real host wired to the local test provider, an operator
 * token for storage status, and the sign-in steps over plain HTTP (start → provider → callback).
 * Every value that must never reach a log (codes, states, session ids, secrets) is collected in
 * `secretsSeen` so a suite can grep the host output for them at the end.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { launchChromium } from '../support/browser.ts';
import type { Tool } from '../../harness/tools.ts';
import { followAuthorization, type ProviderCallback } from '../support/oauth-provider/follow-authorization.ts';
import { startOAuthFixture, type OAuthFixture } from '../support/oauth-provider/fixture.ts';
import { freePort, startHost, type HostProcess } from '../../harness/host-process.ts';
import { operatorIssuer } from '../support/operator-token.ts';

export const PROVIDERS = ['provider_a', 'provider_b', 'provider_c'] as const;
export type Provider = (typeof PROVIDERS)[number];
export const SESSION_COOKIE = 'wasi_auth_dev_session';
/** The operator-token issuer of the OAuth suites: its public key goes in OPERATOR_ENV. */
const operator = await operatorIssuer();
export const OPERATOR_ENV: Record<string, string> = operator.env;
/** The events a completed provider sign-in writes (its state lives in key-value, and writes none). */
export const OAUTH_EVENTS = ['auth_external_identity_linked', 'auth_session_issued'] as const;

export interface Service {
  host: HostProcess;
  fixture: OAuthFixture;
  /** values that must never appear in the host's output */
  secretsSeen: Set<string>;
  stop(): Promise<void>;
}

/** The host on a known port (the redirect URIs need it) with the local provider configured. */
export async function startService(extraEnv: Record<string, string> = {}): Promise<Service> {
  const port = await freePort();
  const fixture = await startOAuthFixture(`http://127.0.0.1:${port}`);
  const env: Record<string, string> = { ...fixture.env, ...OPERATOR_ENV, ...extraEnv };
  const host = await startHost({ port, env, timeoutMs: 60_000 });
  const secretsSeen = new Set<string>(fixture.secrets);
  return {
    host,
    fixture,
    secretsSeen,
    async stop() {
      await host.stop();
      await fixture.provider.stop();
    },
  };
}

export async function operatorToken(): Promise<string> {
  return operator.mint({ sub: 'oauth-flow-test' }, { expiresIn: '10m' });
}

export async function eventCounts(base: string): Promise<Record<string, number>> {
  const response = await fetch(`${base}/api/auth/storage/status`, { headers: { authorization: `Bearer ${await operatorToken()}` } });
  expect(response.status).toBe(200);
  return ((await response.json()) as { events: Record<string, number> }).events;
}

/** The browser-binding cookie each started sign-in's browser holds (`name=value`), by state. */
const bindings = new Map<string, string>();

/** `name=value` of the browser-binding cookie a /start response sets. */
export function bindingCookieOf(response: Response): string | undefined {
  return response.headers
    .getSetCookie()
    .find((c) => /^(__Host-)?wasi_oauth_binding=/.test(c))
    ?.split(';')[0];
}

/** Remembers which browser (binding cookie) started the sign-in whose state is in `location`. */
export function rememberBrowser(response: Response, location: string): void {
  const state = new URL(location).searchParams.get('state');
  const cookie = bindingCookieOf(response);
  if (state && cookie) bindings.set(state, cookie);
}

/**
 * Fetches a callback URL (or posts to it) as the browser that started the sign-in whose state
 * the URL or form carries: with that browser's binding cookie. `as: 'stranger'` sends none.
 */
export function asBrowser(url: string | URL, init: RequestInit & { state?: string | undefined; as?: 'starter' | 'stranger' } = {}): Promise<Response> {
  const { state = new URL(url).searchParams.get('state') ?? undefined, as = 'starter', ...rest } = init;
  const cookie = as === 'starter' && state ? bindings.get(state) : undefined;
  return fetch(url, { ...rest, headers: { ...(rest.headers as Record<string, string> | undefined), ...(cookie ? { cookie } : {}) } });
}

/** GET start; returns the Location it redirects to (provider URL, or our callback with the bypass). */
export async function start(service: Service, provider: string, next?: string): Promise<string> {
  const query = next === undefined ? '' : `?next=${encodeURIComponent(next)}`;
  const response = await fetch(`${service.host.url}/api/auth/oauth/${provider}/start${query}`, { redirect: 'manual' });
  expect(response.status).toBe(302);
  const location = response.headers.get('location')!;
  rememberBrowser(response, location);
  const state = new URL(location).searchParams.get('state');
  if (state) service.secretsSeen.add(state);
  const binding = bindingCookieOf(response);
  if (binding) service.secretsSeen.add(binding.split('=')[1]!);
  return location;
}

/** Start, then let the local provider approve: what the provider sends back to our callback. */
export async function authorize(service: Service, provider: Provider, next?: string): Promise<ProviderCallback> {
  const callback = await followAuthorization(await start(service, provider, next));
  for (const name of ['code', 'state']) if (callback.params[name]) service.secretsSeen.add(callback.params[name]);
  return callback;
}

/**
 * Delivers callback parameters to a callback URL (GET query or form post), without following
 * redirects, as the browser that started the sign-in (or, `as: 'stranger'`, another browser).
 */
export function deliver(target: string, method: 'GET' | 'POST', params: Record<string, string>, json = false, as: 'starter' | 'stranger' = 'starter'): Promise<Response> {
  const headers: Record<string, string> = json ? { accept: 'application/json' } : {};
  const state = params['state'];
  if (method === 'GET') {
    const url = new URL(target);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    return asBrowser(url, { headers, redirect: 'manual', state, as });
  }
  return asBrowser(target, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params).toString(),
    redirect: 'manual',
    state,
    as,
  });
}

export function sessionCookieOf(response: Response): string | undefined {
  const header = response.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  return header?.slice(SESSION_COOKIE.length + 1).split(';')[0] || undefined;
}

/** A failed callback: status, JSON envelope with code and reason, and no session cookie. */
export async function expectFailure(response: Response, status: number, code: string, reason: string): Promise<void> {
  expect(response.headers.getSetCookie().filter((c) => c.startsWith(`${SESSION_COOKIE}=`))).toEqual([]);
  expect(response.status).toBe(status);
  const body = (await response.json()) as { error: { code: string; message: string; reason?: string } };
  expect(body.error).toMatchObject({ code, reason });
  expect(typeof body.error.message).toBe('string');
}

/** No value from `secrets` anywhere in the host's output. */
export function expectNoSecretsLogged(service: Service): void {
  const output = service.host.output.join('\n');
  expect(service.secretsSeen.size).toBeGreaterThan(0);
  for (const secret of service.secretsSeen) {
    if (secret.length >= 8 && output.includes(secret)) throw new Error(`the host output contains a secret value (${secret.length} characters)`);
  }
}

/** A service for the enclosing file or describe block: started before its tests, handed to `use`, stopped after them. */
export function withService(use: (service: Service) => void): void {
  let service: Service | undefined;
  beforeAll(async () => {
    service = await startService();
    use(service);
  }, 90_000);
  afterAll(async () => {
    await service?.stop();
  });
}

/**
 * A service and a Chromium for the enclosing describe block: both started before its tests and
 * handed to `use`, the browser closed and the service stopped after them.
 */
export function withServiceAndBrowser(chromium: Tool | undefined, use: (service: Service, browser: Browser) => void): void {
  let service: Service | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    [service, browser] = await Promise.all([startService(), launchChromium(chromium!)]);
    use(service, browser);
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await service?.stop();
  });
}
