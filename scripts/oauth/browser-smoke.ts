/**
 * `npm run oauth:browser-smoke`: the interactive end-to-end check. For each
 * provider in OAUTH_PROVIDERS it opens a visible Chromium on BASE_URL/login, clicks the provider,
 * waits for the operator to finish the provider login (until the browser is back on
 * BASE_URL/dashboard, at most OAUTH_BROWSER_TIMEOUT_SECONDS, default 300), captures the session
 * cookie, checks /api/auth/session, /dashboard and (with AUTH_SYSTEM_ACCESS_TOKEN) the storage
 * evidence of this login, then replays the exact callback request in JSON mode and expects
 * 409 `conflict` (an OAuth state is single-use). Records the outcome for tracker A11.
 * OAUTH_BROWSER_HEADLESS=true runs without a window (CI, tests); CHROMIUM names the browser.
 *
 *   BASE_URL=https://auth.example.com OAUTH_PROVIDERS=provider_a AUTH_SYSTEM_ACCESS_TOKEN=… npm run oauth:browser-smoke
 */
import { chromium } from 'playwright-core';
import type { ProviderId } from '../../src/auth/oauth/provider-ids.ts';
import { recordForA11, type A11Outcome } from './live/a11-results.ts';
import { loginThroughBrowser, type CapturedCallback } from './live/browser-login.ts';
import { errorCode, jsonBody, request } from './live/http.ts';
import type { ToolOutput } from './live/output.ts';
import { SESSION_COOKIE_NAME } from './live/params.ts';
import { checkDashboard, checkSession } from './live/session-evidence.ts';
import { checkEvents, checkProjectionProgress, IDENTITY_LINKED, readStorageStatus, SESSION_ISSUED, storageStatusChecked } from './live/storage-evidence.ts';
import { runTool } from './live/tool.ts';

const DEFAULT_TIMEOUT_SECONDS = 300;

await runTool('browser-smoke', {}, async ({ env, params, out }) => {
  const { baseUrl, providers, accessToken, expectedEmail } = params;
  const headless = env.OAUTH_BROWSER_HEADLESS?.trim().toLowerCase() === 'true';
  const timeoutSeconds = Number(env.OAUTH_BROWSER_TIMEOUT_SECONDS?.trim() || DEFAULT_TIMEOUT_SECONDS);
  if (!Number.isInteger(timeoutSeconds) || timeoutSeconds < 5 || timeoutSeconds > 3600)
    return out.fail('parameters', 'OAUTH_BROWSER_TIMEOUT_SECONDS must be a whole number of seconds from 5 to 3600');
  if (!headless && process.platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY)
    return out.fail('parameters', 'no display for a visible browser (DISPLAY is not set): run it on a desktop, or set OAUTH_BROWSER_HEADLESS=true for automated runs');
  out.line(`OAuth browser smoke for ${providers.join(', ')} against ${baseUrl} (${headless ? 'headless' : 'visible'} Chromium; nothing it sees is printed)`);
  if (!accessToken) out.skip('shared', 'AUTH_SYSTEM_ACCESS_TOKEN is not set: the storage evidence of the login is not checked');

  const offered = await offeredProviders(out, baseUrl);
  const browser = await chromium.launch({ executablePath: env.CHROMIUM?.trim() || '/usr/bin/chromium', headless, args: headless ? ['--no-sandbox', '--disable-gpu'] : [] });
  const outcomes: A11Outcome[] = [];
  try {
    for (const provider of providers) outcomes.push({ provider, passed: false, authorizationEndpoint: await smoke(provider) });
  } finally {
    await browser.close();
  }
  recordForA11(
    out,
    env,
    'browser',
    'oauth:browser-smoke',
    baseUrl,
    outcomes.map((o) => ({ ...o, passed: out.passedFor(o.provider) })),
  );

  /** One provider's login; returns the authorization endpoint origin the browser went through. */
  async function smoke(provider: ProviderId): Promise<string | undefined> {
    const status = async () => {
      if (!accessToken) return undefined;
      const read = await readStorageStatus(baseUrl, accessToken);
      return 'status' in read ? read.status : undefined;
    };
    const before = accessToken ? await storageStatusChecked(out, provider, baseUrl, accessToken, 'before the login') : undefined;
    const login = await loginThroughBrowser(browser, baseUrl, provider, timeoutSeconds * 1000, () =>
      out.note(
        `${provider}: ${headless ? 'headless run, the provider must complete the login by itself' : 'finish the provider login in the browser window'}; waiting up to ${timeoutSeconds} s for ${baseUrl}/dashboard`,
      ),
    );
    out.addSecret(login.cookie?.value);
    if (login.callback) for (const s of secretsOfCallback(login.callback)) out.addSecret(s);

    if (!out.check(provider, login.loginPageOk, login.loginPageOk ? '/login answers 200' : '/login did not answer 200')) return undefined;
    if (offered) {
      const same = login.buttons.length === offered.length && offered.every((id) => login.buttons.includes(id));
      out.check(
        provider,
        same,
        same
          ? `/login shows exactly the providers of /api/auth/capabilities (${offered.join(', ') || 'none'})`
          : `/login shows ${login.buttons.join(', ') || 'no provider'} but /api/auth/capabilities lists ${offered.join(', ') || 'none'}`,
      );
    }
    if (!out.check(provider, login.clicked, login.clicked ? `clicked the ${provider} button on /login` : `/login has no ${provider} button`)) return undefined;
    out.check(
      provider,
      login.providerOrigin !== undefined,
      login.providerOrigin
        ? `the login went to the provider's authorization endpoint (${login.providerOrigin})`
        : 'the login never left the service: the development callback bypass is on, which live verification must not use',
    );
    if (
      !out.check(
        provider,
        login.reachedDashboard,
        login.reachedDashboard ? 'the browser came back to /dashboard' : `the browser did not reach ${baseUrl}/dashboard within ${timeoutSeconds} s (it is at ${login.lastPlace})`,
      )
    )
      return login.providerOrigin;
    if (
      !out.check(
        provider,
        login.callback !== undefined,
        login.callback
          ? `the provider returned to the callback (${login.callback.method}${login.callback.method === 'POST' ? ', form_post' : ''})`
          : 'no request to the callback was seen',
      )
    )
      return login.providerOrigin;
    if (!login.cookie) {
      out.fail(provider, `the browser holds no ${SESSION_COOKIE_NAME} cookie for ${baseUrl}`);
      return login.providerOrigin;
    }
    const secureNeeded = baseUrl.startsWith('https:');
    const attributesOk = login.cookie.httpOnly && login.cookie.sameSite === 'Lax' && (login.cookie.secure || !secureNeeded);
    out.check(
      provider,
      attributesOk,
      `captured the ${SESSION_COOKIE_NAME} cookie (HttpOnly ${login.cookie.httpOnly}, SameSite ${login.cookie.sameSite}, Secure ${login.cookie.secure}${secureNeeded ? ', required on https' : ''}; value not printed)`,
    );

    const cookie = `${SESSION_COOKIE_NAME}=${login.cookie.value}`;
    await checkSession(out, provider, baseUrl, cookie, { providers: [provider], expectedEmail });
    await checkDashboard(out, provider, baseUrl, cookie);
    if (before) {
      const after = await storageStatusChecked(out, provider, baseUrl, accessToken!, 'after the login');
      if (after) {
        // This login's session is new; a returning account links only once.
        checkEvents(out, provider, [SESSION_ISSUED], after, before);
        checkEvents(out, provider, [IDENTITY_LINKED], after);
        await checkProjectionProgress(out, provider, after, status, before);
      }
    }
    await replay(provider, login.callback!);
    return login.providerOrigin;
  }

  /** The exact callback request again, asking for JSON: a consumed state must answer 409 conflict. */
  async function replay(provider: ProviderId, callback: CapturedCallback): Promise<void> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (callback.contentType) headers['content-type'] = callback.contentType;
    const result = await request(callback.url, { method: callback.method, headers, ...(callback.method === 'POST' && callback.body !== null ? { body: callback.body } : {}) });
    if ('problem' in result) return out.fail(provider, `callback replay: ${result.problem}`);
    const code = errorCode(await jsonBody(result.response));
    const ok = result.response.status === 409 && code === 'conflict';
    out.check(
      provider,
      ok,
      ok
        ? 'replaying the exact callback request (JSON mode) answers 409 conflict: the state is single-use'
        : `replaying the exact callback request must answer 409 conflict (it answered HTTP ${result.response.status}${code ? `, ${code}` : ''})`,
    );
  }
});

/** The provider ids /api/auth/capabilities lists, or undefined (recorded as a failure). */
async function offeredProviders(out: ToolOutput, baseUrl: string): Promise<string[] | undefined> {
  const result = await request(`${baseUrl}/api/auth/capabilities`, { headers: { accept: 'application/json' } });
  if ('problem' in result) return void out.fail('shared', `/api/auth/capabilities: ${result.problem}`);
  const body = (await jsonBody(result.response)) as { oauth?: { providers?: Array<{ id?: unknown }> } } | undefined;
  const ids = body?.oauth?.providers?.map((p) => p.id).filter((id): id is string => typeof id === 'string');
  if (result.response.status !== 200 || !ids) return void out.fail('shared', `/api/auth/capabilities answered HTTP ${result.response.status} without an oauth.providers list`);
  return ids;
}

/** Every value of the callback request (code, state, form fields, the whole query). */
function secretsOfCallback(callback: CapturedCallback): string[] {
  const query = new URL(callback.url).searchParams;
  const form = callback.body !== null ? new URLSearchParams(callback.body) : new URLSearchParams();
  return [new URL(callback.url).search.slice(1), callback.body ?? '', ...query.values(), ...form.values()].filter(Boolean);
}
