/**
 * The REST contract over real HTTP against the real Node host running the built component on
 * SQLite: every route and every error case.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/error-envelope.ts';
import { startHost, type HostProcess } from '../../harness/host-process.ts';

let host: HostProcess;
beforeAll(async () => {
  host = await startHost();
});
afterAll(async () => {
  await host?.stop();
});

const post = (path: string, body?: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  fetch(`${host.url}${path}`, { method: 'POST', headers, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });

interface View {
  count: number;
  latest_events: Array<{ sequence: number; event_type: string; revision: number; payload: string; recorded_at: string }>;
  last_sequence: number;
  realtime_enabled: boolean;
}

describe('GET /api/counter/view', () => {
  it('returns the initial view on an empty store', async () => {
    const response = await fetch(`${host.url}/api/counter/view`);
    expect(response.status).toBe(200);
    const view = (await response.json()) as View;
    expect(view).toEqual({ count: 0, latest_events: [], last_sequence: 0, realtime_enabled: true });
  });
});

describe('response heads', () => {
  it('sends a complete body with its length, not chunked, and HEAD with the same head', async () => {
    for (const [path, status] of [
      ['/api/counter/view', 200],
      ['/api/nope', 404],
    ] as const) {
      const response = await fetch(`${host.url}${path}`);
      const body = new Uint8Array(await response.arrayBuffer());
      expect(response.status).toBe(status);
      expect(response.headers.get('content-length')).toBe(String(body.byteLength));
      expect(response.headers.get('transfer-encoding')).toBeNull();
      expect(response.headers.get('cache-control')).toBe('no-store');
    }
    const get = await fetch(`${host.url}/api/counter/view`);
    const head = await fetch(`${host.url}/api/counter/view`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(get.headers.get('content-length'));
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    expect(await head.text()).toBe('');
    await get.arrayBuffer();
  });
});

describe('commands', () => {
  it('increments, decrements and resets, returning the view each time', async () => {
    let response = await post('/api/counter/increment', { amount: 5 });
    expect(response.status).toBe(200);
    let view = (await response.json()) as View;
    expect(view.count).toBe(5);
    expect(view.last_sequence).toBe(1);
    expect(view.latest_events).toHaveLength(1);
    const first = view.latest_events[0]!;
    expect(first).toMatchObject({ sequence: 1, event_type: 'incremented', revision: 1 });
    expect(JSON.parse(first.payload)).toEqual({ amount: 5, value: 5 });
    expect(first.recorded_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);

    response = await post('/api/counter/decrement?amount=2', undefined, {});
    view = (await response.json()) as View;
    expect(response.status).toBe(200);
    expect(view.count).toBe(3);
    expect(view.latest_events[0]).toMatchObject({ sequence: 2, event_type: 'decremented', revision: 2 });

    response = await post('/api/counter/reset', undefined, {});
    view = (await response.json()) as View;
    expect(response.status).toBe(200);
    expect(view.count).toBe(0);
    expect(view.latest_events[0]).toMatchObject({ sequence: 3, event_type: 'reset_performed', revision: 3 });
    expect(JSON.parse(view.latest_events[0]!.payload)).toEqual({ previous: 3 });

    const fetched = (await (await fetch(`${host.url}/api/counter/view`)).json()) as View;
    expect(fetched).toEqual(view);
  });

  it('lists the five newest events, newest first', async () => {
    for (let i = 1; i <= 6; i++) await post('/api/counter/increment', { amount: i });
    const view = (await (await fetch(`${host.url}/api/counter/view`)).json()) as View;
    expect(view.latest_events).toHaveLength(5);
    const sequences = view.latest_events.map((e) => e.sequence);
    expect(sequences).toEqual([...sequences].sort((a, b) => b - a));
    expect(view.latest_events[0]!.sequence).toBe(view.last_sequence);
    expect(JSON.parse(view.latest_events[0]!.payload)).toMatchObject({ amount: 6 });
  });
});

describe('errors', () => {
  it('rejects a non-positive amount with the validation message', async () => {
    await expectError(await post('/api/counter/increment', { amount: 0 }), 400, 'validation', 'amount must be positive');
    await expectError(await post('/api/counter/increment', { amount: -3 }), 400, 'validation', 'amount must be positive');
    await expectError(await post('/api/counter/decrement?amount=0', undefined, {}), 400, 'validation', 'amount must be positive');
  });

  it('rejects amounts that are not 32-bit integers', async () => {
    await expectError(await post('/api/counter/increment', { amount: 1.5 }), 400, 'validation');
    await expectError(await post('/api/counter/increment', { amount: '3' }), 400, 'validation');
    await expectError(await post('/api/counter/increment', { amount: 2 ** 31 }), 400, 'validation');
    await expectError(await post('/api/counter/increment', {}), 400, 'validation');
    await expectError(await post('/api/counter/decrement?amount=abc', undefined, {}), 400, 'validation');
    await expectError(await post('/api/counter/decrement', undefined, {}), 400, 'validation');
  });

  it('rejects malformed JSON', async () => {
    await expectError(await post('/api/counter/increment', '{"amount":'), 400, 'validation');
  });

  it('rejects a wrong content type with 415', async () => {
    await expectError(await post('/api/counter/increment', 'amount=1', { 'content-type': 'application/x-www-form-urlencoded' }), 415, 'unsupported_media_type');
    await expectError(await post('/api/counter/increment', '{"amount":1}', { 'content-type': 'text/plain' }), 415, 'unsupported_media_type');
  });

  it('rejects a body over 256 KiB with 413', async () => {
    const big = JSON.stringify({ amount: 1, padding: 'x'.repeat(300 * 1024) });
    await expectError(await post('/api/counter/increment', big), 413, 'payload_too_large');
  });

  it('rejects a count leaving the 32-bit range as a domain error', async () => {
    await post('/api/counter/reset', undefined, {});
    expect((await post('/api/counter/increment', { amount: 2147483647 })).status).toBe(200);
    await expectError(await post('/api/counter/increment', { amount: 1 }), 409, 'domain');
    const view = (await (await fetch(`${host.url}/api/counter/view`)).json()) as View;
    expect(view.count).toBe(2147483647);
    await post('/api/counter/reset', undefined, {});
  });

  it('answers a wrong method with 405 and Allow', async () => {
    const response = await fetch(`${host.url}/api/counter/increment`);
    const error = await expectError(response, 405, 'method_not_allowed');
    expect(error.message.length).toBeGreaterThan(0);
    expect(response.headers.get('allow')).toContain('POST');
    const viewPost = await post('/api/counter/view', undefined, {});
    await expectError(viewPost, 405, 'method_not_allowed');
    expect(viewPost.headers.get('allow')).toContain('GET');
  });

  it('answers an unknown route with 404', async () => {
    await expectError(await fetch(`${host.url}/api/counter/nope`), 404, 'not_found');
    await expectError(await fetch(`${host.url}/api/unknown`), 404, 'not_found');
  });

  it('logs every failure with its error code', async () => {
    await post('/api/counter/increment', { amount: 0 });
    await new Promise((r) => setTimeout(r, 100));
    const codes = host.logs().map((l) => l.code);
    expect(codes).toContain('validation');
  });
});
