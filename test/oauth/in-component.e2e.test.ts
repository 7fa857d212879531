/**
 * The OAuth building blocks inside a real component (componentize-js 0.23, same build as the
 * service): ID-token verification, provider_c's client-secret signing, and the provider modules'
 * token exchange over outgoing wasi:http against the local provider, on the project's Node host
 * AND under `wasmtime serve` (pure JS must work under every host where users sign in).
 */
import { decodeProtectedHeader, exportPKCS8, generateKeyPair, importJWK, exportJWK, jwtVerify, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOAuthFixture, type OAuthFixture } from '../support/oauth-provider/fixture.ts';
import { followAuthorization } from '../support/oauth-provider/follow-authorization.ts';
import { requireTool } from '../../harness/tools.ts';
import { buildProbe, type BuiltProbe } from '../../harness/oauth-probe/build-probe.ts';
import { startHost } from '../../host/app.ts';
import { loadConfig } from '../../host/config.ts';
import { jsonLogger } from '../../host/log.ts';
import { freePort, tempDataDir } from '../../harness/host-process.ts';
import { wasmtimeServe } from '../../harness/wasmtime-serve.ts';

const wasmtime = requireTool('wasmtime');
let built: BuiltProbe;
let fixture: OAuthFixture;
const BASE = 'http://127.0.0.1:39998';

beforeAll(async () => {
  built = await buildProbe();
  fixture = await startOAuthFixture(BASE);
}, 600_000);
afterAll(() => fixture?.provider.stop());

/** The project's host (host/app.ts startHost) serving the probe component instead of the service. */
async function startNodeHost() {
  const config = loadConfig(['--port', String(await freePort()), '--data-dir', tempDataDir('oauth-probe-'), '--instances-min', '1'], {});
  const host = await startHost(
    config,
    {},
    jsonLogger(() => {}),
    { componentDir: built.transpiled },
  );
  return { url: `http://127.0.0.1:${host.port}`, stop: () => host.stop() };
}

const runtimes = [
  { name: 'Node host (JSPI, instance pool)', start: startNodeHost, skip: false },
  { name: 'wasmtime serve', start: async () => wasmtimeServe(wasmtime!.path, built.wasm), skip: !wasmtime },
];

describe.each(runtimes)('inside the component on $name', ({ start, skip }) => {
  let url: string;
  let stop: () => Promise<void>;
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(response.status).toBe(200);
    return (await response.json()) as Record<string, unknown>;
  };

  beforeAll(async () => {
    if (skip) return;
    const served = await start();
    url = served.url;
    stop = () => served.stop();
  }, 120_000);
  afterAll(() => stop?.());

  it.skipIf(skip)('verifies RS256 and ES256 ID tokens and refuses broken ones with the same reasons as on Node', async () => {
    for (const alg of ['RS256', 'ES256'] as const) {
      const { publicKey, privateKey } = await generateKeyPair(alg);
      const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: 'k1' }] };
      const now = Date.now();
      const sign = (claims: Record<string, unknown>, kid = 'k1') =>
        new SignJWT({ iss: 'https://issuer.test', aud: 'client-1', sub: 'user-1', nonce: 'n-1', iat: Math.floor(now / 1000), exp: Math.floor(now / 1000) + 300, ...claims })
          .setProtectedHeader({ alg, kid })
          .sign(privateKey);
      const options = { jwks, issuer: 'https://issuer.test', audience: 'client-1', nonce: 'n-1', allowedAlgs: ['RS256', 'ES256'], now, clockToleranceSec: 30 };
      expect(await post('/verify-id-token', { token: await sign({}), options })).toMatchObject({ ok: true, claims: { sub: 'user-1' } });
      expect(await post('/verify-id-token', { token: await sign({ nonce: 'other' }), options })).toMatchObject({ ok: false, code: 'id_token_invalid', reason: 'nonce' });
      expect(await post('/verify-id-token', { token: await sign({}, 'k2'), options })).toMatchObject({ ok: false, reason: 'unknown_kid' });
      const [h, , s] = (await sign({})).split('.');
      const forged = `${h}.${Buffer.from(JSON.stringify({ sub: 'admin' })).toString('base64url')}.${s}`;
      expect(await post('/verify-id-token', { token: forged, options })).toMatchObject({ ok: false, reason: 'bad_signature' });
      const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{}').toString('base64url')}.`;
      expect(await post('/verify-id-token', { token: none, options })).toMatchObject({ ok: false, reason: 'alg_none' });
    }
  });

  it.skipIf(skip)('signs the provider_c client-secret JWT (ES256) that node:crypto verifies, cached on repeat', async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
    const pem = (await exportPKCS8(privateKey)).replace(/\n/g, '\\n');
    const now = Date.now();
    const result = await post('/sign-client-secret', { teamId: 'TEAM1', keyId: 'KEY1', clientId: 'com.example', audience: 'https://c.test', privateKey: pem, now });
    expect(result.ok).toBe(true);
    const { payload } = await jwtVerify(result.jwt as string, await importJWK(await exportJWK(publicKey), 'ES256'), {
      issuer: 'TEAM1',
      subject: 'com.example',
      audience: 'https://c.test',
      currentDate: new Date(now),
    });
    expect(payload.exp! - payload.iat!).toBe(300);
    expect(decodeProtectedHeader(result.jwt as string)).toEqual({ alg: 'ES256', kid: 'KEY1' });
    expect(result.cachedAgain).toBe(result.cachedFirst);
  });

  it.skipIf(skip)('completes sign-in for each provider: authorization URL, code exchange over outgoing HTTP, verification', async () => {
    for (const provider of ['provider_a', 'provider_b', 'provider_c'] as const) {
      const prepared = await post('/provider/prepare', { env: fixture.env, provider });
      const callback = await followAuthorization(prepared.url as string);
      expect(callback.params.state).toBe(prepared.state);
      const input = {
        code: callback.params.code,
        nonce: prepared.nonce,
        ...(prepared.codeVerifier ? { codeVerifier: prepared.codeVerifier } : {}),
        ...(callback.params.user ? { user: callback.params.user } : {}),
      };
      const result = await post('/provider/sign-in', { env: fixture.env, provider, input });
      expect(result).toEqual({ ok: true, identity: { provider, subject: 'test-user-1', email: 'person@example.test', emailVerified: true, name: 'Test Person' } });
    }
  });

  it.skipIf(skip)('refuses a provider ID token with the wrong audience inside the component', async () => {
    const prepared = await post('/provider/prepare', { env: fixture.env, provider: 'provider_c' });
    const callback = await followAuthorization(prepared.url as string);
    fixture.provider.misbehaveOnce('wrong_aud');
    const result = await post('/provider/sign-in', { env: fixture.env, provider: 'provider_c', input: { code: callback.params.code, nonce: prepared.nonce } });
    expect(result).toEqual({ ok: false, code: 'id_token_invalid', reason: 'audience' });
  });
});
