/**
 * The sign-in limits and email comparison under the real `wasmtime serve` (the composed standalone
 * component, file store; docs/security.md): the account-wide budget and the device cookie need no
 * client address (every client is `unknown` here), and email normalization uses bundled tables,
 * so the guest answers as on the Node host.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson, uniqueEmail } from '../auth/support.ts';
import { requireTool } from '../../harness/tools.ts';
import { startWasmtime, type WasmtimeProcess } from '../../harness/wasmtime-process.ts';

const wasmtime = requireTool('wasmtime');
const PASSWORD = 'the owner knows this one';

describe.skipIf(!wasmtime)('sign-in limits under wasmtime serve', () => {
  let server: WasmtimeProcess;
  beforeAll(async () => {
    server = await startWasmtime({}, wasmtime!.path);
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
  });

  const login = (email: string, password: string, cookie?: string) => postJson(server.url, '/api/auth/password/login', { email, password }, cookie ? { cookie } : {});

  it('after 5 failures the account waits (429); the browser that signed in before still signs in', async () => {
    const email = uniqueEmail('wasmtime-budget');
    expect((await postJson(server.url, '/api/auth/password/register', { email, password: PASSWORD })).status).toBe(202);
    const first = await login(email, PASSWORD);
    expect(first.status).toBe(200);
    const device = first.headers
      .getSetCookie()
      .find((c) => c.startsWith('wasi_auth_device='))
      ?.split(';')[0];
    expect(device).toMatch(/^wasi_auth_device=[\w-]{22}\.[\w-]{43}$/);
    const statuses = [];
    for (let i = 0; i < 8; i++) statuses.push((await login(email, `wrong guess ${i} here`)).status);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5)).toEqual([429, 429, 429]);
    expect((await login(email, PASSWORD)).status).toBe(429);
    expect((await login(email, PASSWORD, device)).status).toBe(200);
  });

  it('emails compare as on the Node host: the IDNA domain is one account, a Kelvin-sign local part is refused', async () => {
    const local = `kim-${Date.now().toString(36)}`;
    expect((await postJson(server.url, '/api/auth/password/register', { email: `${local}@Bücher.Example`, password: PASSWORD })).status).toBe(202);
    const signedIn = await login(`${local.toUpperCase()}@xn--bcher-kva.example`, PASSWORD);
    expect(signedIn.status).toBe(200);
    expect(((await signedIn.json()) as { email: string }).email).toBe(`${local}@xn--bcher-kva.example`);
    expect((await postJson(server.url, '/api/auth/password/register', { email: `\u212A${local.slice(1)}@example.test`, password: PASSWORD })).status).toBe(400);
  });
});
