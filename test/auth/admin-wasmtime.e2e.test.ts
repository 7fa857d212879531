/**
 * The administration API under the real `wasmtime serve` (the standalone component, its file
 * store): the same token check, the address index answered by the file store's document lists,
 * and a disable that ends the account's session and refuses its password sign-in until enabled.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTool } from '../../harness/tools.ts';
import { startWasmtime, type WasmtimeProcess } from '../../harness/wasmtime-process.ts';
import { operatorIssuer } from '../support/operator-token.ts';
import { expectError, PASSWORD, postJson, register, sessionOf } from './support.ts';

const wasmtime = requireTool('wasmtime');
const operator = await operatorIssuer();

describe.skipIf(!wasmtime)('the administration API under wasmtime serve', () => {
  let server: WasmtimeProcess;
  beforeAll(async () => {
    server = await startWasmtime({ guestEnv: { ...operator.env, AUTH_CLIENT_MAX_ATTEMPTS_PER_MINUTE: '1000' } }, wasmtime!.path);
  }, 600_000);
  afterAll(async () => {
    await server?.stop();
  });

  const admin = async (method: string, path: string, token?: string) =>
    fetch(`${server.url}${path}`, { method, headers: { authorization: `Bearer ${token ?? (await operator.mint())}` } });

  it('refuses a forged token; finds, disables and enables an account', { timeout: 180_000 }, async () => {
    const forger = await operatorIssuer(operator.kid);
    await expectError(await admin('GET', '/api/admin/users', await forger.mint()), 401, 'unauthorized');
    await expectError(await admin('GET', '/api/admin/users', await operator.mint({ aud: 'another-api' })), 401, 'unauthorized');

    const ada = await register(server.url);
    const listed = (await (await admin('GET', `/api/admin/users?q=${encodeURIComponent(ada.email)}`)).json()) as { users: Array<{ id: string }>; next: string | null };
    expect(listed).toEqual({ users: [expect.objectContaining({ id: ada.userId, email: ada.email, disabled: false })], next: null });

    expect(await (await admin('POST', `/api/admin/users/${ada.userId}/disable`)).json()).toMatchObject({ disabled: true, changed: true, sessions_ended: 1 });
    expect(await sessionOf(server.url, ada.sessionId)).toEqual({ authenticated: false });
    await expectError(await postJson(server.url, '/api/auth/password/login', { email: ada.email, password: PASSWORD }), 403, 'account_disabled');

    expect(await (await admin('POST', `/api/admin/users/${ada.userId}/enable`)).json()).toMatchObject({ disabled: false, changed: true });
    expect((await postJson(server.url, '/api/auth/password/login', { email: ada.email, password: PASSWORD })).status).toBe(200);
  });
});
