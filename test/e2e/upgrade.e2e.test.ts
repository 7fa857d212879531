/**
 * Every store an earlier release wrote (test/fixtures/stores/<release>/, see
 * test/fixtures/upgrade-store.ts) is served by this build: started on a copy, the host shows the
 * same count and events, takes new commands on top, signs the password account in again, finds
 * the OAuth account through its stored identity, and reports the stored auth events.
 */
import { copyFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_DIR, oauthSignIn, passwordSignIn, startWithProvider, type StoreManifest } from '../fixtures/upgrade-store.ts';
import { tempDataDir } from '../../harness/host-process.ts';
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
