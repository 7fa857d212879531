/** The server functions through `app.request()` and through the typed client the UI uses (static/client/server-functions.ts). */
import { announcedView } from '../application/announcement.ts';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { StoreError } from '../../errors.ts';
import type { CounterView } from '../application/view.ts';
import { testCounterDeps, TEST_CHANNEL, type TestCounterDeps } from '../testing.ts';
import { serverFunctionClient } from '../../../static/client/server-functions.ts';
import { counterPageRoutes } from './routes.tsx';

function setup(deps: TestCounterDeps = testCounterDeps()) {
  const app = new Hono();
  app.route('/', counterPageRoutes(deps, []));
  const client = serverFunctionClient(async (input, init) => app.request(input, init), 'http://ui.test');
  return { app, client, deps, platform: deps.platform };
}

const post = (body: string | undefined, contentType = 'application/json'): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': contentType },
  ...(body === undefined ? {} : { body }),
});

async function expectFailure(response: Response, status: number, code: string, message?: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('cache-control')).toBe('no-store');
  const body = (await response.json()) as { error: { code: string; message: string } };
  expect(Object.keys(body)).toEqual(['error']);
  expect(body.error.code).toBe(code);
  if (message !== undefined) expect(body.error.message).toBe(message);
}

describe('server functions through the typed client', () => {
  it('get_counter_view returns the view', async () => {
    const { client } = setup();
    const response = await client.getCounterView();
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ count: 0, latest_events: [], last_sequence: 0, realtime_enabled: true });
  });

  it('increment_count, decrement_count and reset_count change the count and return the new view', async () => {
    const { client } = setup();
    const incremented = await (await client.command('increment', { amount: 7 })).json();
    expect(incremented).toMatchObject({ count: 7, last_sequence: 1 });
    const decremented = await (await client.command('decrement', { amount: 3 })).json();
    expect(decremented).toMatchObject({ count: 4, last_sequence: 2 });
    const reset = await client.command('reset', {});
    expect(reset.ok).toBe(true);
    const view = (await reset.json()) as CounterView;
    expect(view).toMatchObject({ count: 0, last_sequence: 3 });
    expect(view.latest_events.map((e) => [e.event_type, e.payload])).toEqual([
      ['reset_performed', '{"previous":4}'],
      ['decremented', '{"amount":3,"value":4}'],
      ['incremented', '{"amount":7,"value":7}'],
    ]);
  });

  it('goes through the shared command routine: each command announces its commit on the realtime channel', async () => {
    const { client, platform } = setup();
    await client.command('increment', { amount: 2 });
    await client.command('reset', {});
    const published = platform.pubsub.published.filter((p) => p.channel === TEST_CHANNEL).map((p) => announcedView(p.message, true));
    expect(published.map((p) => p?.last_sequence)).toEqual([1, 2]);
  });

  it('rejects amount 0 and negative amounts with `amount must be positive`, logged with its code', async () => {
    const { client, platform } = setup();
    await expectFailure(await client.command('increment', { amount: 0 }), 400, 'validation', 'amount must be positive');
    await expectFailure(await client.command('decrement', { amount: -4 }), 400, 'validation', 'amount must be positive');
    expect(platform.events.headSequence()).toBe(0n);
    const logged = platform.logger.withCode('validation');
    expect(logged.map((e) => [e.level, e.fields['function'], e.fields['status']])).toEqual([
      ['info', 'increment_count', 400],
      ['info', 'decrement_count', 400],
    ]);
  });
});

describe('server functions: encoding and failures', () => {
  it('rejects amounts that are not positive 32-bit integers', async () => {
    const { app } = setup();
    const cases: Array<[string, string]> = [
      ['{"amount":"5"}', 'amount must be an integer'],
      ['{"amount":1.5}', 'amount must be an integer'],
      ['{}', 'amount is required'],
      ['{"amount":2147483648}', 'amount must not exceed 2147483647'],
      ['[1]', 'request body must be a JSON object with "amount" (a positive 32-bit integer)'],
    ];
    for (const [body, message] of cases) {
      await expectFailure(await app.request('/api/increment_count', post(body)), 400, 'validation', message);
    }
  });

  it('answers malformed JSON with a validation error and other media types with 415', async () => {
    const { app, platform } = setup();
    await expectFailure(await app.request('/api/decrement_count', post('{"amount":')), 400, 'validation', 'request body must be valid JSON');
    await expectFailure(await app.request('/api/increment_count', post('amount=1', 'application/x-www-form-urlencoded')), 415, 'unsupported_media_type');
    expect(platform.logger.codes()).toEqual(['validation', 'unsupported_media_type']);
    expect(platform.logger.entries.map((e) => e.fields['function'])).toEqual(['decrement_count', 'increment_count']);
  });

  it('turns a storage failure into the `store` error, logged at error level', async () => {
    const { app, platform } = setup();
    platform.faults.failAlways('append', new StoreError('unavailable', 'connection refused'));
    await expectFailure(await app.request('/api/reset_count', { method: 'POST' }), 503, 'store', 'storage is unavailable, try again later');
    const [entry] = platform.logger.withCode('store');
    expect(entry?.level).toBe('error');
    expect(entry?.fields['function']).toBe('reset_count');
    expect(String(entry?.fields['detail'])).toContain('connection refused');
  });

  it('answers 405 with Allow for another method on a server-function path', async () => {
    const { app } = setup();
    const get = await app.request('/api/increment_count');
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const postView = await app.request('/api/get_counter_view', { method: 'POST' });
    expect(postView.status).toBe(405);
    expect(postView.headers.get('allow')).toBe('GET, HEAD');
  });

  it('does not take over the REST paths', async () => {
    const { app } = setup();
    expect((await app.request('/api/counter/view')).status).toBe(404);
  });

  it('serves the view with no-store caching', async () => {
    const { app } = setup();
    const response = await app.request('/api/get_counter_view');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  });
});
