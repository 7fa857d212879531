/**
 * Under `wasmtime serve` nothing sets or strips `x-app-client-address`: a client could send its
 * own. The attack: wrong passwords for one email, each naming a fresh address in the header, to
 * get a new (email, address) budget every time. The guest believes the header only when its host
 * passes APP_CLIENT_ADDRESS_HEADER=trusted (the Node host does; the launcher never does), so here
 * every client is one client and the lock holds. Started with the launcher's own arguments
 * (harness/wasmtime-process.ts); the second suite adds the variable as docs/deployment.md
 * tells an operator to, behind real nginx running the page's block, which writes the header itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, postJson, uniqueEmail } from '../auth/support.ts';
import { freePort } from '../../harness/host-process.ts';
import { postFrom } from '../support/post-from.ts';
import { documentedBlock, type ProxyProcess, startNginx } from '../support/reverse-proxy.ts';
import { requireTool } from '../../harness/tools.ts';
import { prepareWasmtimeComponent, startWasmtime, type WasmtimeProcess } from '../../harness/wasmtime-process.ts';
import { inOneMinuteWindow } from '../support/minute-window.ts';

const wasmtime = requireTool('wasmtime');
const nginx = requireTool('nginx');
const openssl = requireTool('openssl');
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

  describe.skipIf(!nginx || !openssl)('with APP_CLIENT_ADDRESS_HEADER=trusted behind nginx (docs/deployment.md)', () => {
    let server: WasmtimeProcess;
    let proxy: ProxyProcess;
    let base: string;
    beforeAll(async () => {
      server = await startWasmtime({ guestEnv: { AUTH_CLIENT_MAX_ATTEMPTS_PER_MINUTE: '4', APP_CLIENT_ADDRESS_HEADER: 'trusted' } }, wasmtime!.path);
      const port = await freePort();
      base = `https://127.0.0.1:${port}`;
      proxy = await startNginx(nginx!.path, openssl!.path, (tls) => {
        const location = documentedBlock('docs/deployment.md', '`wasmtime serve`', 'nginx', [['http://127.0.0.1:3000', `http://127.0.0.1:${server.port}`]]);
        return `server {\n listen 127.0.0.1:${port} ssl;\n ssl_certificate ${tls.certificatePath};\n ssl_certificate_key ${tls.keyPath};\n${location}}\n`;
      });
    }, 120_000);
    afterAll(async () => {
      await proxy?.stop();
      await server?.stop();
    });

    /** Through nginx from a chosen loopback address, with the client's own x-app-client-address. */
    const via = (localAddress: string, path: string, body: unknown, claimed: string) =>
      postFrom(localAddress, `${base}${path}`, body, { ca: proxy.certificate, headers: { 'x-app-client-address': claimed } });

    // The per-client budget (4 attempts a minute here) is what rotating the header would multiply;
    // the per-address lock is shadowed by the account-wide delay, which no address escapes.
    it("nginx's address replaces the client's own header: rotating it does not help the attacker, the victim elsewhere signs in", { timeout: 120_000 }, async () => {
      const email = uniqueEmail('wasmtime');
      expect((await via('127.0.0.2', '/api/auth/password/register', { email, password: PASSWORD }, '198.51.100.1')).status).toBe(202);
      // The five attempts below must fall in one budget window (each takes a hash under wasmtime, slow on a loaded machine).
      await inOneMinuteWindow(30_000);
      for (let i = 1; i <= 4; i++)
        expect((await via('127.0.0.3', LOGIN, { email: uniqueEmail('nobody'), password: 'wrong password guess' }, `198.51.100.${i}`)).code).toBe('invalid_credentials');
      expect(await via('127.0.0.3', LOGIN, { email: uniqueEmail('nobody'), password: PASSWORD }, '198.51.100.9')).toMatchObject({ status: 429, code: 'rate_limited' });
      expect((await via('127.0.0.2', LOGIN, { email, password: PASSWORD }, '198.51.100.3')).status).toBe(200);
    });
  });
});
