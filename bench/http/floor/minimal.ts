/**
 * The floor of the `http` benchmark (rows d, e, f): a component built for the `hosted` world by the
 * project's own build path (`node scripts/build.ts --variant floor`) that uses none of the world's
 * imports but wasi:http: this project's incoming handler and buffered responses around a
 * handler that answers `GET` with a small JSON object and a `POST` of JSON with JSON. What a
 * componentize-js component costs per request on each runtime, beside what this service costs.
 */
import { installBufferedResponse } from '../../../src/http/buffered-response.ts';
import { createIncomingHandler } from '../../../src/http/handler.ts';

installBufferedResponse();

const JSON_HEADERS = { 'content-type': 'application/json', 'cache-control': 'no-store' };

async function answer(request: Request): Promise<Response> {
  // The Node host's start-up probe and GET rows: a health answer.
  if (request.method !== 'POST') return new Response('{"status":"ok"}', { headers: JSON_HEADERS });
  const body = (await request.json()) as { amount?: unknown };
  const amount = typeof body.amount === 'number' ? body.amount : 0;
  return new Response(JSON.stringify({ count: amount, latest_events: [], last_sequence: 0, realtime_enabled: false }), { headers: JSON_HEADERS });
}

export const incomingHandler = createIncomingHandler(answer, (error) => console.error(String(error)));
