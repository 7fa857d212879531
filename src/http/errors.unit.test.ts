/** The shared AppError → HTTP table. */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { AppError, APP_ERROR_CODES } from '../errors.ts';
import { createMemoryPlatform } from '../platform/testing/memory-platform.ts';
import { errorResponse, notFoundResponse, statusForCode } from './errors.ts';

describe('http errors', () => {
  it('maps every code to its status', () => {
    const table = Object.fromEntries(APP_ERROR_CODES.map((code) => [code, statusForCode(code)]));
    expect(table).toEqual({
      validation: 400,
      domain: 409,
      concurrency: 409,
      conflict: 409,
      unauthorized: 401,
      invalid_credentials: 401,
      forbidden: 403,
      account_disabled: 403,
      rate_limited: 429,
      store: 503,
      not_found: 404,
      method_not_allowed: 405,
      payload_too_large: 413,
      unsupported_media_type: 415,
      configuration: 500,
      internal: 500,
    });
  });

  it('renders the envelope with the public message only, logging the cause', async () => {
    const { logger } = createMemoryPlatform();
    const app = new Hono();
    app.get('/x', (c) => errorResponse(c, AppError.from(new Error('secret detail')), logger));
    const response = await app.request('/x');
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: { code: 'internal', message: 'internal error' } });
    expect(logger.entries[0]?.fields).toMatchObject({ code: 'internal', status: 500, method: 'GET', path: '/x' });
    expect(String(logger.entries[0]?.fields['detail'])).toContain('secret detail');
  });

  it('notFoundResponse gives 404 not_found', async () => {
    const app = new Hono();
    app.notFound((c) => notFoundResponse(c));
    const response = await app.request('/api/missing');
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { code: 'not_found', message: 'no route matches this path' } });
  });
});
