/// <reference path="../../src/platform/bindings/standalone/standalone.d.ts" />
/**
 * A test-only component entry (world `standalone`) that exposes the PasswordHasher port over
 * HTTP, so test/e2e/wasmtime-password.e2e.test.ts can drive the compiled password component
 * through the composed component under `wasmtime serve` with inputs no product route sends
 * (a malformed stored hash, a hash made by the Node host).
 *
 *   POST /hash {password}  -> {value: <PHC string>}
 *   POST /verify {password, encoded} -> {value: boolean} | 422 {error: <platform-error case>}
 */
import { createIncomingHandler } from '../../src/http/handler.ts';
import { nfkcInGuest, witPasswordHashing } from '../../src/platform/password-hashing.ts';
import { StoreError } from '../../src/errors.ts';

const passwords = witPasswordHashing(nfkcInGuest);

async function handle(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const body = (await request.json()) as { password: string; encoded?: string };
  const reply = (status: number, value: unknown) => new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json' } });
  try {
    if (url.pathname === '/hash') return reply(200, { value: passwords.hash(body.password) });
    if (url.pathname === '/verify') return reply(200, { value: passwords.verify(body.password, body.encoded ?? '') });
    return reply(404, { error: 'not found' });
  } catch (error) {
    return reply(422, { error: error instanceof StoreError ? error.kind : 'unexpected' });
  }
}

export const incomingHandler = createIncomingHandler(handle, (error) => console.log(String(error)));
