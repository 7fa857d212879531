/** The counter REST routes through `app.request()` (no sockets), mounted as the top-level app does. */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { AppError, StoreError } from '../errors.ts';
import { errorResponse, notFoundResponse } from '../http/errors.ts';
import { counterRestRoutes, MAX_BODY_BYTES } from './rest.ts';
import { testCounterDeps, type TestCounterDeps } from './testing.ts';

function setup(deps: TestCounterDeps = testCounterDeps()) {
  const app = new Hono();
  app.route('/', counterRestRoutes(deps));
  app.notFound((c) => notFoundResponse(c));
  app.onError((error, c) => errorResponse(c, AppError.from(error), deps.platform.logger));
  return { app, deps, platform: deps.platform };
}

const json = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

async function expectError(response: Response, status: number, code: string, message?: string) {
  expect(response.status).toBe(status);
  const body = (await response.json()) as { error: { code: string; message: string } };
  expect(Object.keys(body)).toEqual(['error']);
  expect(body.error.code).toBe(code);
  if (message !== undefined) expect(body.error.message).toBe(message);
  return body.error;
}

describe('counter REST routes: success', () => {
  it('GET /api/counter/view returns the view', async () => {
    const { app } = setup();
    const response = await app.request('/api/counter/view');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ count: 0, latest_events: [], last_sequence: 0, realtime_enabled: true });
  });

  it('POST /api/counter/increment takes a JSON body', async () => {
    const { app } = setup();
    const response = await app.request('/api/counter/increment', json({ amount: 5 }));
    expect(response.status).toBe(200);
    const view = (await response.json()) as { count: number; latest_events: { event_type: string; payload: string }[] };
    expect(view.count).toBe(5);
    expect(view.latest_events[0]).toMatchObject({ event_type: 'incremented', payload: '{"amount":5,"value":5}' });
  });

  it('accepts application/json with parameters', async () => {
    const { app } = setup();
    const response = await app.request('/api/counter/increment', {
      method: 'POST',
      headers: { 'content-type': 'Application/JSON; charset=utf-8' },
      body: '{"amount":2}',
    });
    expect(response.status).toBe(200);
  });

  it('POST /api/counter/decrement takes the amount from the query', async () => {
    const { app } = setup();
    const response = await app.request('/api/counter/decrement?amount=3', { method: 'POST' });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { count: number }).count).toBe(-3);
  });

  it('POST /api/counter/reset resets', async () => {
    const { app } = setup();
    await app.request('/api/counter/increment', json({ amount: 9 }));
    const response = await app.request('/api/counter/reset', { method: 'POST' });
    expect(response.status).toBe(200);
    const view = (await response.json()) as { count: number; latest_events: { payload: string }[] };
    expect(view.count).toBe(0);
    expect(view.latest_events[0]?.payload).toBe('{"previous":9}');
  });

  it('the view reflects commands', async () => {
    const { app } = setup();
    await app.request('/api/counter/increment', json({ amount: 4 }));
    await app.request('/api/counter/decrement?amount=1', { method: 'POST' });
    const view = (await (await app.request('/api/counter/view')).json()) as { count: number; last_sequence: number };
    expect([view.count, view.last_sequence]).toEqual([3, 2]);
  });

  it('HEAD on the view is served like GET', async () => {
    const { app } = setup();
    expect((await app.request('/api/counter/view', { method: 'HEAD' })).status).toBe(200);
  });
});

describe('counter REST routes: validation', () => {
  const increment = (body: unknown) => setup().app.request('/api/counter/increment', json(body));
  const decrement = (query: string) => setup().app.request(`/api/counter/decrement${query}`, { method: 'POST' });

  it('rejects non-positive amounts with the exact message', async () => {
    await expectError(await increment({ amount: 0 }), 400, 'validation', 'amount must be positive');
    await expectError(await increment({ amount: -4 }), 400, 'validation', 'amount must be positive');
    await expectError(await decrement('?amount=0'), 400, 'validation', 'amount must be positive');
    await expectError(await decrement('?amount=-1'), 400, 'validation', 'amount must be positive');
  });

  it('rejects missing amounts', async () => {
    await expectError(await increment({}), 400, 'validation', 'amount is required');
    await expectError(await decrement(''), 400, 'validation', 'amount is required');
  });

  it('rejects non-integer amounts', async () => {
    for (const amount of ['5', 1.5, null, true, [1]]) {
      await expectError(await increment({ amount }), 400, 'validation', 'amount must be an integer');
    }
    for (const query of ['?amount=abc', '?amount=1.5', '?amount=', '?amount=1e3']) {
      await expectError(await decrement(query), 400, 'validation', 'amount must be an integer');
    }
  });

  it('takes an integer written with a zero fraction in the query (JSON Schema counts 13905.0 as an integer)', async () => {
    expect((await decrement('?amount=2.0')).status).toBe(200);
  });

  it('rejects amounts beyond i32', async () => {
    await expectError(await increment({ amount: 2_147_483_648 }), 400, 'validation', 'amount must not exceed 2147483647');
    await expectError(await decrement('?amount=99999999999'), 400, 'validation', 'amount must not exceed 2147483647');
  });

  it('rejects a repeated query amount', async () => {
    await expectError(await decrement('?amount=1&amount=2'), 400, 'validation', 'amount must be given once');
  });

  it('rejects malformed JSON and non-object bodies', async () => {
    await expectError(await increment('{"amount":'), 400, 'validation', 'request body must be valid JSON');
    await expectError(await increment(''), 400, 'validation', 'request body must be valid JSON');
    for (const body of [[1], 5, 'text', null]) {
      await expectError(await increment(JSON.stringify(body)), 400, 'validation', 'request body must be a JSON object with "amount" (a positive 32-bit integer)');
    }
  });

  it('rejects a count leaving i32 as a domain error', async () => {
    const { app } = setup();
    await app.request('/api/counter/increment', json({ amount: 2_147_483_647 }));
    await expectError(await app.request('/api/counter/increment', json({ amount: 1 })), 409, 'domain');
  });

  it('requires application/json on increment', async () => {
    const { app } = setup();
    const text = await app.request('/api/counter/increment', { method: 'POST', body: '{"amount":1}' });
    await expectError(text, 415, 'unsupported_media_type');
    const none = await app.request('/api/counter/increment', { method: 'POST' });
    await expectError(none, 415, 'unsupported_media_type');
    const form = await app.request('/api/counter/increment', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'amount=1',
    });
    await expectError(form, 415, 'unsupported_media_type');
  });
});

describe('counter REST routes: protocol errors', () => {
  it('answers 405 with Allow for other methods on known paths', async () => {
    const { app } = setup();
    const onView = await app.request('/api/counter/view', { method: 'POST' });
    expect(onView.headers.get('allow')).toBe('GET, HEAD');
    await expectError(onView, 405, 'method_not_allowed');
    for (const path of ['/api/counter/increment', '/api/counter/decrement', '/api/counter/reset']) {
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const response = await app.request(path, { method });
        expect(response.headers.get('allow')).toBe('POST');
        await expectError(response, 405, 'method_not_allowed');
      }
    }
  });

  it('leaves unknown paths to the top-level notFound', async () => {
    const { app } = setup();
    await expectError(await app.request('/api/counter/nope'), 404, 'not_found');
  });

  const padded = (size: number): string => {
    const prefix = '{"amount":1,"pad":"';
    return `${prefix}${'x'.repeat(size - prefix.length - 2)}"}`;
  };

  it('accepts a body of exactly 256 KiB', async () => {
    const { app } = setup();
    const body = padded(MAX_BODY_BYTES);
    expect(body.length).toBe(MAX_BODY_BYTES);
    expect((await app.request('/api/counter/increment', json(body))).status).toBe(200);
  });

  it('rejects a larger body declared by content-length', async () => {
    const { app, platform } = setup();
    const body = padded(MAX_BODY_BYTES + 1);
    const response = await app.request('/api/counter/increment', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(body.length) },
      body,
    });
    await expectError(response, 413, 'payload_too_large');
    expect(platform.events.headSequence()).toBe(0n);
  });

  it('rejects a larger streamed body without content-length', async () => {
    const { app, platform } = setup();
    const bytes = new TextEncoder().encode(padded(MAX_BODY_BYTES + 1));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 100_000));
        controller.enqueue(bytes.slice(100_000));
        controller.close();
      },
    });
    const request = new Request('http://localhost/api/counter/increment', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(request.headers.has('content-length')).toBe(false);
    await expectError(await app.request(request), 413, 'payload_too_large');
    expect(platform.events.headSequence()).toBe(0n);
  });

  it('limits bodies on the query-driven routes too', async () => {
    const { app } = setup();
    const response = await app.request('/api/counter/reset', { method: 'POST', body: 'x'.repeat(MAX_BODY_BYTES + 1) });
    await expectError(response, 413, 'payload_too_large');
  });
});

describe('counter REST routes: failures', () => {
  it('maps exhausted conflicts to 409', async () => {
    const { app, platform } = setup(testCounterDeps({ retry: { maxAttempts: 3 } }));
    platform.faults.failAlways('append', new StoreError('conflict', 'revision conflict on counter-global'));
    await expectError(await app.request('/api/counter/reset', { method: 'POST' }), 409, 'concurrency');
  });

  it('maps store failures to 503 without internal detail', async () => {
    const { app, platform } = setup();
    platform.failNext('readStream', new StoreError('unavailable', 'connection refused to db.internal:5432'));
    const error = await expectError(await app.request('/api/counter/view'), 503, 'store', 'storage is unavailable, try again later');
    expect(JSON.stringify(error)).not.toContain('db.internal');
  });

  it('answers GET view synchronously, its store failure too (no promise on the hot path)', async () => {
    const { app, platform } = setup();
    const ok = app.fetch(new Request('http://localhost/api/counter/view'));
    expect(ok).toBeInstanceOf(Response);
    platform.failNext('readStream', new StoreError('unavailable', 'connection refused'));
    const failed = app.fetch(new Request('http://localhost/api/counter/view'));
    expect(failed).toBeInstanceOf(Response);
    await expectError(failed as Response, 503, 'store');
  });

  it('maps unexpected failures to 500 internal', async () => {
    const { app, platform } = setup();
    platform.failNext('readStream', new TypeError('boom at line 3'));
    await expectError(await app.request('/api/counter/decrement?amount=1', { method: 'POST' }), 500, 'internal', 'internal error');
  });

  it('still answers 200 when publishing or projecting fails', async () => {
    const { app, platform } = setup();
    platform.failNext('publish');
    platform.failNext('commit');
    expect((await app.request('/api/counter/increment', json({ amount: 1 }))).status).toBe(200);
    platform.respond(); // the projection runs once the response is sent
    expect(platform.logger.codes()).toEqual(['realtime_publish_failed', 'projection_failed']);
  });

  it('logs every failure with its code, never the request body', async () => {
    const { app, platform } = setup();
    platform.failNext('readStream');
    await app.request('/api/counter/view');
    await app.request('/api/counter/increment', json({ amount: 0, secret: 'hunter2' }));
    await app.request('/api/counter/increment', { method: 'POST', body: 'hunter2' });
    await app.request('/api/counter/view', { method: 'DELETE' });
    expect(platform.logger.codes()).toEqual(['store', 'validation', 'unsupported_media_type', 'method_not_allowed']);
    expect(platform.logger.entries.map((e) => e.level)).toEqual(['error', 'info', 'info', 'info']);
    expect(platform.logger.entries[0]?.fields['detail']).toContain('injected');
    expect(JSON.stringify(platform.logger.entries)).not.toContain('hunter2');
  });
});
