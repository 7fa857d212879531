/**
 * Probe routes that run the provider modules inside the component: the authorization step and the
 * whole callback half (code exchange over outgoing wasi:http, JWKS, ID token or user-info).
 * The OAuth environment is posted by the test (a probe has no configuration of its own).
 */
import { Hono } from 'hono';
import { parseOAuthConfig } from '../../src/auth/oauth/config.ts';
import { OAuthError } from '../../src/auth/oauth/errors.ts';
import { prepareAuthorization } from '../../src/auth/oauth/prepare-authorization.ts';
import { randomToken } from '../../src/auth/oauth/random-tokens.ts';
import { defaultDeps, OAUTH_PROVIDERS, type CallbackInput } from '../../src/auth/oauth/providers/index.ts';
import type { ProviderId } from '../../src/auth/oauth/provider-ids.ts';

function settingsFor(env: Record<string, string>, provider: ProviderId) {
  const settings = parseOAuthConfig(env).providers[provider].settings;
  if (!settings) throw new Error(`${provider} is not offered`);
  return settings;
}

export function providerRoutes(): Hono {
  const app = new Hono();
  app.post('/prepare', async (c) => {
    const { env, provider } = await c.req.json<{ env: Record<string, string>; provider: ProviderId }>();
    return c.json(prepareAuthorization(settingsFor(env, provider), randomToken()));
  });
  app.post('/sign-in', async (c) => {
    const { env, provider, input } = await c.req.json<{ env: Record<string, string>; provider: ProviderId; input: CallbackInput }>();
    try {
      const identity = await OAUTH_PROVIDERS[provider].signIn(settingsFor(env, provider), input, defaultDeps);
      return c.json({ ok: true, identity });
    } catch (error) {
      if (error instanceof OAuthError) return c.json({ ok: false, code: error.code, reason: error.reason, status: error.status });
      return c.json({ ok: false, code: 'unexpected', message: String(error) });
    }
  });
  return app;
}
