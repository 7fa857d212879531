/**
 * The Hono app inside the OAuth probe components: runs the service's OAuth building blocks
 * (src/auth/oauth) inside a real componentize-js component, over HTTP, so tests and the benchmark
 * can prove they work there and time them. Test-only: not part of the service.
 */
import { Hono } from 'hono';
import { OAuthError } from '../../src/auth/oauth/errors.ts';
import { cachedClientSecretJwt, signClientSecretJwt, type ClientSecretJwtInput } from '../../src/auth/oauth/jwt/client-secret-jwt.ts';
import { verifyIdToken, type VerifyIdTokenOptions } from '../../src/auth/oauth/jwt/verify-id-token.ts';
import { timeOperation, type BenchInput, type Operation } from './ops.ts';
import { providerRoutes } from './provider-routes.ts';

function failure(error: unknown) {
  if (error instanceof OAuthError) return { ok: false, code: error.code, reason: error.reason, message: error.message };
  return { ok: false, code: 'unexpected', message: String(error) };
}

export function probeApp(ops: Record<string, Operation>): Hono {
  const app = new Hono();
  app.post('/bench', async (c) => c.json(timeOperation(ops, await c.req.json<BenchInput>())));
  app.post('/verify-id-token', async (c) => {
    const { token, options } = await c.req.json<{ token: string; options: VerifyIdTokenOptions }>();
    try {
      return c.json({ ok: true, claims: verifyIdToken(token, options) });
    } catch (error) {
      return c.json(failure(error));
    }
  });
  app.post('/sign-client-secret', async (c) => {
    const input = await c.req.json<ClientSecretJwtInput>();
    try {
      const source = cachedClientSecretJwt(input);
      const first = source.current(input.now);
      return c.json({ ok: true, ...signClientSecretJwt(input), cachedFirst: first, cachedAgain: source.current(input.now) });
    } catch (error) {
      return c.json(failure(error));
    }
  });
  app.route('/provider', providerRoutes());
  return app;
}
