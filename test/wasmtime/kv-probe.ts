/// <reference path="../../src/platform/bindings/standalone/standalone.d.ts" />
/**
 * A test-only component entry (world `standalone`) that exposes the file store's key-value port
 * over HTTP, so test/e2e/wasmtime-kv.e2e.test.ts can race it across real wasmtime instances
 * (rename-based take, the increment lock and its back-off sleep on wasi:clocks). The counter
 * product does not use key-value, so the application's routes cannot exercise it.
 *
 *   POST /set?key=k&value=v   POST /take?key=k   POST /increment?key=k   GET /get?key=k
 */
import { createIncomingHandler } from '../../src/http/handler.ts';
import { openFileStorage } from '../../src/platform/standalone/file-storage.ts';
import { preopenedDirectory, wasiFileSystem } from '../../src/platform/standalone/wasi-file-system.ts';

function handle(request: Request): Response {
  const url = new URL(request.url);
  const key = url.searchParams.get('key') ?? '';
  const kv = openFileStorage(wasiFileSystem(preopenedDirectory('/data'))).keyValue;
  const reply = (value: unknown) => new Response(JSON.stringify({ value }), { headers: { 'content-type': 'application/json' } });
  try {
    switch (url.pathname) {
      case '/set':
        kv.set('probe', key, url.searchParams.get('value') ?? '', undefined);
        return reply(null);
      case '/get':
        return reply(kv.get('probe', key) ?? null);
      case '/take':
        return reply(kv.take('probe', key) ?? null);
      case '/increment':
        return reply(kv.increment('probe', key, 1n, 600_000n).toString());
      default:
        return new Response('not found', { status: 404 });
    }
  } catch (error) {
    return new Response(JSON.stringify({ error: String((error as { message?: string }).message ?? error) }), { status: 500 });
  }
}

export const incomingHandler = createIncomingHandler(handle, (error) => console.log(String(error)));
