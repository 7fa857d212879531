/**
 * Every store an earlier release wrote (test/fixtures/stores/<release>/, see
 * test/fixtures/upgrade-store.ts) is served by this build: started on a copy, the Node host (on
 * the SQLite file) and `wasmtime serve` (on the file store tree) show the same count and events,
 * take new commands on top, sign the password account in again and find the OAuth account
 * through its stored identity; the Node host also reports the stored auth events.
 */
import { copyFileSync, cpSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_DIR, OAUTH_SUBJECT, oauthSignIn, passwordSignIn, startWithProvider, type StoreManifest } from '../fixtures/upgrade-store.ts';
import { freePort, tempDataDir } from '../../harness/host-process.ts';
import { requireTool } from '../../harness/tools.ts';
import { startWasmtime, type WasmtimeProcess } from '../../harness/wasmtime-process.ts';
import { openFileStorage } from '../../src/platform/standalone/file-storage.ts';
import { nodeFileSystem } from '../../scripts/wasmtime/node-file-system.ts';
import { startOAuthFixture, type OAuthFixture } from '../support/oauth-provider/fixture.ts';
import { operatorIssuer, type OperatorIssuer } from '../support/operator-token.ts';

const releases = readdirSync(FIXTURE_DIR);

describe.each(releases)('a SQLite store written by %s', (release) => {
  const manifest = JSON.parse(readFileSync(join(FIXTURE_DIR, release, 'manifest.json'), 'utf8')) as StoreManifest;
  let service: Awaited<ReturnType<typeof startWithProvider>>;
  let operator: OperatorIssuer;
  let base: string;

  beforeAll(async () => {
    const dataDir = tempDataDir('upgrade-');
    copyFileSync(join(FIXTURE_DIR, release, 'app.sqlite'), join(dataDir, 'app.sqlite'));
    operator = await operatorIssuer();
    service = await startWithProvider(dataDir, operator.env);
    base = service.host.url;
  }, 90_000);
  afterAll(() => service?.stop());

  const eventCounts = async () => {
    const response = await fetch(`${base}/api/auth/storage/status`, { headers: { authorization: `Bearer ${await operator.mint()}` } });
    expect(response.status).toBe(200);
    return ((await response.json()) as { events: Record<string, number> }).events;
  };

  it('reports the stored auth events before anything new is written', async () => {
    expect(await eventCounts()).toMatchObject({ auth_password_user_registered: 1, auth_external_user_registered: 1, auth_session_issued: 2, auth_external_identity_linked: 1 });
  });

  it('shows the same count and events, and takes a command on top', async () => {
    const view = (await (await fetch(`${base}/api/counter/view`)).json()) as { count: number; last_sequence: number; latest_events: Array<{ payload: string }> };
    expect(view.count).toBe(manifest.counter.count);
    expect(view.last_sequence).toBe(manifest.counter.last_sequence);
    expect(view.latest_events.map((e) => e.payload)).toEqual(manifest.counter.payloads);
    const next = await fetch(`${base}/api/counter/increment`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"amount":1}' });
    expect(((await next.json()) as { count: number }).count).toBe(manifest.counter.count + 1);
  });

  it('signs the stored password account in, as the same user', async () => {
    expect(await passwordSignIn(base, manifest.password_user.email)).toBe(manifest.password_user.user_id);
  });

  it('finds the stored OAuth account through its identity (no new link)', async () => {
    expect(await oauthSignIn(base)).toBe(manifest.oauth_user.user_id);
    expect(await eventCounts()).toMatchObject({ auth_external_identity_linked: 1, auth_external_user_registered: 1 });
  });
});

const wasmtime = requireTool('wasmtime');

describe.skipIf(!wasmtime).each(releases)('the file store written by %s, under wasmtime serve', (release) => {
  const manifest = JSON.parse(readFileSync(join(FIXTURE_DIR, release, 'manifest.json'), 'utf8')) as StoreManifest;
  let server: WasmtimeProcess;
  let provider: OAuthFixture;
  const dataDir = tempDataDir('upgrade-wasmtime-');

  beforeAll(async () => {
    cpSync(join(FIXTURE_DIR, release, 'files'), dataDir, { recursive: true });
    const port = await freePort();
    provider = await startOAuthFixture(`http://127.0.0.1:${port}`, { user: { subject: OAUTH_SUBJECT, email: 'upgrade-oauth@example.test' } });
    server = await startWasmtime({ dataDir, port, instanceReuse: 16, guestEnv: provider.env }, wasmtime!.path);
  }, 600_000);
  afterAll(async () => {
    await server?.stop();
    await provider?.provider.stop();
  });

  it('shows the same count and events, and takes a command on top', async () => {
    const view = (await (await fetch(`${server.url}/api/counter/view`)).json()) as { count: number; last_sequence: number; latest_events: Array<{ payload: string }> };
    expect([view.count, view.last_sequence]).toEqual([manifest.counter.count, manifest.counter.last_sequence]);
    expect(view.latest_events.map((e) => e.payload)).toEqual(manifest.counter.payloads);
    const next = await fetch(`${server.url}/api/counter/increment`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"amount":1}' });
    expect(((await next.json()) as { count: number }).count).toBe(manifest.counter.count + 1);
  });

  it('signs the stored password account in, and finds the stored OAuth account', async () => {
    expect(await passwordSignIn(server.url, manifest.password_user.email)).toBe(manifest.password_user.user_id);
    expect(await oauthSignIn(server.url)).toBe(manifest.oauth_user.user_id);
    // Found through the stored identity: no second link was written.
    const links = openFileStorage(nodeFileSystem(dataDir))
      .events.readAll(0n, 1000)
      .filter((e) => e.eventType === 'auth_external_identity_linked');
    expect(links).toHaveLength(1);
  });
});
