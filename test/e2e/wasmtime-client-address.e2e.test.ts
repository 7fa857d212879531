/**
 * Under `wasmtime serve` nothing sets or strips `x-app-client-address`: a client could send its
 * own. The attack: wrong passwords for one email, each naming a fresh address in the header, to
 * get a new (email, address) budget every time. The guest believes the header only when its host
 * passes APP_CLIENT_ADDRESS_HEADER=trusted (the Node host does; the launcher never does), so here
 * every client is one client and the lock holds. Started with the launcher's own arguments
 * (test/support/wasmtime-process.ts); the second suite adds the variable as an operator would
 * behind a proxy that sets the header itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, postJson, uniqueEmail } from '../auth/support.ts';
import { requireTool } from '../support/tools.ts';
import { prepareWasmtimeComponent, startWasmtime, type WasmtimeProcess } from '../support/wasmtime-process.ts';

const wasmtime = requireTool('wasmtime');
const LOGIN = '/api/auth/password/login';

async function loginAs(base: string, email: string, password: string, address: string): Promise<{ status: number; code: string | undefined }> {
  const response = await postJson(base, LOGIN, { email, password }, { 'x-app-client-address': address });
  const body = (await response.json()) as { error?: { code: string } };
  return { status: response.status, code: body.error?.code };
}

async function registered(base: string): Promise<string> {
  const email = uniqueEmail('wasmtime');
  expect((await postJson(base, '/api/auth/password/register', { email, password: PASSWORD })).status).toBe(202);
  return email;
}

describe.skipIf(!wasmtime)('x-app-client-address under wasmtime serve', () => {
  beforeAll(() => {
    prepareWasmtimeComponent(wasmtime!.path);
  }, 600_000);

  describe('as npm run serve:wasmtime starts it', () => {
    let server: WasmtimeProcess;
    beforeAll(async () => {
      server = await startWasmtime({ guestEnv: { AUTH_LOGIN_MAX_FAILURES: '3' } }, wasmtime!.path);
    }, 120_000);
    afterAll(async () => {
      await server?.stop();
    });

    it('a client naming a fresh address in the header for each guess is still locked after 3', async () => {
      const email = await registered(server.url);
      for (let i = 1; i <= 3; i++) expect((await loginAs(server.url, email, 'wrong password guess', `198.51.100.${i}`)).code).toBe('invalid_credentials');
      expect(await loginAs(server.url, email, 'wrong password guess', '198.51.100.4')).toMatchObject({ status: 429, code: 'rate_limited' });
      expect(await loginAs(server.url, email, PASSWORD, '2001:db8::5')).toMatchObject({ status: 429, code: 'rate_limited' });
    });
  });

  describe('with APP_CLIENT_ADDRESS_HEADER=trusted (behind a proxy that sets the header)', () => {
    let server: WasmtimeProcess;
    beforeAll(async () => {
      server = await startWasmtime({ guestEnv: { AUTH_LOGIN_MAX_FAILURES: '3', APP_CLIENT_ADDRESS_HEADER: 'trusted' } }, wasmtime!.path);
    }, 120_000);
    afterAll(async () => {
      await server?.stop();
    });

    it('the header names the client: the lock is for the (email, address) pair', async () => {
      const email = await registered(server.url);
      for (let i = 0; i < 3; i++) expect((await loginAs(server.url, email, 'wrong password guess', '198.51.100.1')).code).toBe('invalid_credentials');
      expect((await loginAs(server.url, email, PASSWORD, '198.51.100.1')).code).toBe('rate_limited');
      expect((await loginAs(server.url, email, PASSWORD, '198.51.100.2')).status).toBe(200);
    });
  });
});
