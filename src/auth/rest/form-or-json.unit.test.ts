/**
 * formOrJson() on routes of its own, over the in-memory platform: the answer by the kind of
 * request (JSON, or a 303 to the page), a refusal as the error envelope or back to the form's page,
 * and a signed-out form sent to /login to come back.
 */
import { Hono } from 'hono';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { AppError, RateLimitedError } from '../../errors.ts';
import { errorResponse } from '../../http/errors.ts';
import { createMemoryPlatform } from '../../platform/testing/memory-platform.ts';
import { parseAuthConfig } from '../config.ts';
import { loginWithPassword, registerWithPassword, type AuthDeps } from '../application/index.ts';
import { SESSION_COOKIE } from '../application/session-cookie.ts';
import { formOrJson } from './form-or-json.ts';
import { readInput } from './input.ts';

const alice = { email: 'alice@example.com', password: 'correct horse battery' };
const TokenSchema = v.object({ token: v.string('token must be a string') });
const NextSchema = v.object({ next: v.string() });
const DASHBOARD = { path: '/dashboard', form: 'thing' };
const LINK_PAGE = { path: '/link-page', form: 'link' };

function setup() {
  const platform = createMemoryPlatform();
  const deps: AuthDeps = { platform, config: parseAuthConfig(new Map()) };
  const route = formOrJson(deps);
  const app = new Hono();
  const formsOnly: string[] = [];
  // A link route for anyone: the token kept for the page, "refuse" refused, "slow" rate limited.
  app.post(
    '/link',
    route.anyone(LINK_PAGE, async (c, call) => {
      const { input } = await readInput(c, TokenSchema);
      call.keep({ token: input.token });
      if (input.token === 'refuse') throw new AppError('not_found', 'no such link');
      if (input.token === 'slow') throw new RateLimitedError(30);
      return {
        json: { status: 'done' },
        status: 202,
        see: async () => {
          formsOnly.push(input.token);
          return '/link-page?notice=done';
        },
      };
    }),
  );
  app.post(
    '/mine',
    route.signedIn(DASHBOARD, async (_c, { session }) => ({ json: { user: session.userId }, see: '/dashboard?notice=mine' })),
  );
  app.post(
    '/echo',
    route.anyone(
      { path: '/forgot-password', form: 'forgot' },
      async (_c, call) => {
        call.keep({ email: 'typed@example.com' });
        throw new AppError('validation', 'nope');
      },
      { echo: '/forgot-password' },
    ),
  );
  // A sign-in form: its `next` kept for the page, made safe on the way.
  app.post(
    '/sign-in',
    route.anyone({ path: '/login', form: 'login' }, async (c, call) => {
      const { input } = await readInput(c, NextSchema);
      call.keep({ next: input.next });
      throw new AppError('invalid_credentials', 'no');
    }),
  );
  app.post(
    '/page-only',
    route.signedIn(
      DASHBOARD,
      async () => {
        throw new AppError('forbidden', 'prove it');
      },
      { formOnly: true, logsOwn: (failure) => failure.code === 'forbidden' && (platform.logger.log('info', 'own words', { code: 'own_refusal' }), true) },
    ),
  );
  app.onError((error, c) => errorResponse(c, AppError.from(error), platform.logger));
  return { platform, deps, app, formsOnly };
}

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});
const form = (fields: Record<string, string>, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  body: new URLSearchParams(fields).toString(),
});

async function signedInCookie(deps: AuthDeps) {
  await registerWithPassword(deps, alice);
  const signedIn = await loginWithPassword(deps, alice);
  return { cookie: `${SESSION_COOKIE}=${signedIn.session.sessionId}`, userId: signedIn.userId };
}

describe('formOrJson() answers', () => {
  it('answers a JSON caller with the JSON body and status, never stored', async () => {
    const { app, formsOnly } = setup();
    const response = await app.request('/link', json({ token: 'ok' }));
    expect(response.status).toBe(202);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({ status: 'done' });
    expect(formsOnly).toEqual([]);
  });

  it('answers a form post with a 303 to the page, never stored, finding the page only then', async () => {
    const { app, formsOnly } = setup();
    const response = await app.request('/link', form({ token: 'ok' }));
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/link-page?notice=done');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(formsOnly).toEqual(['ok']);
  });

  it('answers a post of another Content-Type as JSON: its 415 in the envelope', async () => {
    const { app } = setup();
    const response = await app.request('/link', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'token=ok' });
    expect(response.status).toBe(415);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('unsupported_media_type');
  });
});

describe('formOrJson() refusals', () => {
  it('gives a JSON caller the error envelope', async () => {
    const { app } = setup();
    const response = await app.request('/link', json({ token: 'refuse' }));
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { code: 'not_found', message: 'no such link' } });
  });

  it('sends a refused form back to its page with the refusal and the kept token, logged with its code', async () => {
    const { app, platform } = setup();
    const response = await app.request('/link', form({ token: 'refuse' }));
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/link-page?error=not_found&form=link&token=refuse');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-type')).toBeNull();
    expect(platform.logger.withCode('not_found')).toHaveLength(1);
  });

  it('tells a rate-limited form when to come back: Retry-After and retry_at', async () => {
    const { app, platform } = setup();
    const response = await app.request('/link', form({ token: 'slow' }));
    expect(response.status).toBe(303);
    expect(response.headers.get('retry-after')).toBe('30');
    expect(response.headers.get('location')).toBe(`/link-page?error=rate_limited&form=link&retry_at=${Math.ceil(platform.now() / 1000) + 30}&token=slow`);
  });

  it("keeps a refused form's typed email in the echo cookie, never in the query", async () => {
    const { app } = setup();
    const response = await app.request('/echo', form({}));
    expect(response.headers.get('location')).toBe('/forgot-password?error=validation&form=forgot');
    expect(response.headers.get('set-cookie')).toMatch(/^[a-z_]+=typed%40example\.com;/);
    expect(response.headers.get('set-cookie')).toContain('Path=/forgot-password');
  });
});

describe('formOrJson() kept `next`', () => {
  it("sends a refused sign-in back with its `next` in the page's query", async () => {
    const { app } = setup();
    const response = await app.request('/sign-in', form({ next: '/dashboard?tab=keys' }));
    expect(response.headers.get('location')).toBe('/login?error=invalid_credentials&form=login&next=%2Fdashboard%3Ftab%3Dkeys');
  });

  it('keeps only a safe `next`: an address off the site becomes the default page', async () => {
    const { app } = setup();
    const response = await app.request('/sign-in', form({ next: '//evil.example/steal' }));
    expect(response.headers.get('location')).toBe('/login?error=invalid_credentials&form=login&next=%2Fdashboard');
  });
});

describe('formOrJson() signed-in routes', () => {
  it('gives the handler the session', async () => {
    const { app, deps } = setup();
    const { cookie, userId } = await signedInCookie(deps);
    const response = await app.request('/mine', json({}, { cookie }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ user: userId });
  });

  it('answers a signed-out JSON caller 401 unauthorized', async () => {
    const { app } = setup();
    const response = await app.request('/mine', json({}));
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: { code: 'unauthorized', message: 'sign in first' } });
  });

  it('sends a signed-out form to /login, to come back to its page', async () => {
    const { app, platform } = setup();
    const response = await app.request('/mine', form({}));
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/login?next=%2Fdashboard');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(platform.logger.withCode('unauthorized')).toHaveLength(1);
  });

  it("answers a form-only route as a form whatever the Content-Type, in the route's own log words", async () => {
    const { app, deps, platform } = setup();
    const { cookie } = await signedInCookie(deps);
    const response = await app.request('/page-only', json({}, { cookie }));
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/dashboard?error=forbidden&form=thing');
    expect(platform.logger.codes()).toContain('own_refusal');
    expect(platform.logger.withCode('forbidden')).toHaveLength(0);
  });
});
