/**
 * `npm run oauth:preflight`: live preflight against a running service. For each
 * provider in OAUTH_PROVIDERS: /api/auth/capabilities lists it; its login start redirects to an
 * external HTTPS authorization endpoint (never the development callback bypass) with
 * response_type, client_id, redirect_uri, scope, state, nonce (and PKCE); with
 * AUTH_SYSTEM_ACCESS_TOKEN, storage shows the OAuth states it created. Follows no redirect and
 * never contacts the provider, so it does not replace the browser test. Records the outcome for
 * tracker A11. Exit 0 all passed, 1 any failure, 2 bad parameters.
 *
 *   BASE_URL=https://auth.example.com OAUTH_PROVIDERS=provider_a AUTH_SYSTEM_ACCESS_TOKEN=… npm run oauth:preflight
 */
import * as v from 'valibot';
import { PROVIDER_DEFAULTS } from '../../src/auth/oauth/provider-defaults.ts';
import { envPrefix, type ProviderId } from '../../src/auth/oauth/provider-ids.ts';
import { OAUTH_PROVIDERS } from '../../src/auth/oauth/providers/index.ts';
import { recordForA11 } from './live/a11-results.ts';
import { inspectAuthorizationLocation } from './live/authorization-location.ts';
import { errorCode, jsonBody, request } from './live/http.ts';
import { storageStatusChecked } from './live/storage-evidence.ts';
import { runTool } from './live/tool.ts';

const capabilitiesSchema = v.object({
  oauth: v.object({ providers: v.array(v.object({ id: v.string(), label: v.string(), start: v.string() })) }),
});

await runTool('preflight', {}, async ({ env, params, out }) => {
  const { baseUrl, providers, accessToken } = params;
  out.line(`OAuth live preflight for ${providers.join(', ')} against ${baseUrl}`);

  const endpoints = new Map<ProviderId, string | undefined>();
  // Every outcome is recorded, failures included: the tracker shows the latest result per provider.
  const record = () =>
    recordForA11(
      out,
      env,
      'preflight',
      'oauth:preflight',
      baseUrl,
      providers.map((provider) => ({ provider, passed: out.passedFor(provider), authorizationEndpoint: endpoints.get(provider) })),
    );

  const caps = await request(`${baseUrl}/api/auth/capabilities`, { headers: { accept: 'application/json' } });
  const parsed = 'problem' in caps ? undefined : v.safeParse(capabilitiesSchema, await jsonBody(caps.response));
  if ('problem' in caps) out.fail('shared', `/api/auth/capabilities: ${caps.problem}`);
  else if (caps.response.status !== 200 || !parsed?.success) out.fail('shared', `/api/auth/capabilities answered HTTP ${caps.response.status} without an oauth.providers list`);
  if (!parsed?.success) return record();
  const offered = parsed.output.oauth.providers;

  // Login starts keep their state in key-value (it expires there), so storage status shows none
  // of them; with the token, preflight checks only that the token is accepted.
  if (accessToken) await storageStatusChecked(out, 'shared', baseUrl, accessToken, 'before the login starts');
  else out.skip('shared', 'AUTH_SYSTEM_ACCESS_TOKEN is not set: storage status is not checked');

  for (const provider of providers) {
    const entry = offered.find((p) => p.id === provider);
    const p = envPrefix(provider);
    const listed = out.check(
      provider,
      entry !== undefined,
      entry
        ? `/api/auth/capabilities lists ${provider}`
        : `/api/auth/capabilities does not list ${provider}: AUTH_ENABLE_OAUTH or ${p}_ENABLED is off, or a credential is missing (npm run oauth:readiness names it)`,
    );
    if (listed) endpoints.set(provider, await inspectStart(provider, entry!.start));
  }

  out.note(
    'preflight inspects the redirect only and never signs in: it does not replace the browser test. Complete a real provider login with npm run oauth:browser-smoke, then run oauth:callback-evidence and oauth:evidence-report.',
  );
  record();

  /** Starts a login without following it and inspects the redirect; returns the endpoint origin. */
  async function inspectStart(provider: ProviderId, start: string): Promise<string | undefined> {
    if (
      !out.check(
        provider,
        /^\/api\/auth\/oauth\/[a-z_]+\/start$/.test(start),
        `the capabilities start path of ${provider} is ${start.startsWith('/') ? start : 'not a service path'}`,
      )
    )
      return undefined;
    const result = await request(`${baseUrl}${start}?next=${encodeURIComponent('/dashboard')}`, { headers: { accept: 'text/html' } });
    if ('problem' in result) return void out.fail(provider, `login start: ${result.problem}`);
    const { status, headers } = result.response;
    const body = await jsonBody(result.response);
    const redirected = status === 302 || status === 303 || status === 307;
    if (
      !out.check(
        provider,
        redirected,
        redirected
          ? `the login start answers with a redirect (HTTP ${status})`
          : `the login start must redirect to the provider (it answered HTTP ${status}${errorCode(body) ? `, ${errorCode(body)}` : ''})`,
      )
    )
      return undefined;
    const p = envPrefix(provider);
    const inspection = inspectAuthorizationLocation(headers.get('location'), {
      baseUrl,
      provider,
      clientId: env[`${p}_CLIENT_ID`]?.trim() || undefined,
      clientIdVariable: `${p}_CLIENT_ID`,
      scopes: (env[`${p}_SCOPES`]?.trim() || PROVIDER_DEFAULTS[provider].scopes).split(/\s+/),
      pkce: OAUTH_PROVIDERS[provider].usesPkce,
    });
    for (const s of inspection.sensitive) out.addSecret(s);
    for (const c of inspection.checks) out.check(provider, c.passed, c.message);
    return inspection.endpointOrigin;
  }
});
