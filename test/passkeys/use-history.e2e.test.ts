/**
 * A passkey's use history stops growing (docs/storage.md, "Retention"), on a real Node host over
 * SQLite, counting the raw store's rows: 200 passkey sign-ins with a software authenticator over
 * HTTP, a 2 s session lifetime, AUTH_SESSION_RETENTION_SECONDS=1 and a maintenance pass every
 * second. What must hold: 20 s after the last sign-in the store holds at most 40 rows more than
 * before them (each sign-in's session went with retention; the credential's stream keeps its
 * newest use only), the storage-status totals still count every use, and a cloned authenticator
 * (a counter that did not move forward) is still refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTool } from '../../harness/tools.ts';
import { startMailingHost, type MailingHost } from '../support/mailing-host.ts';
import { FAST_RETENTION_ARGS, FAST_RETENTION_ENV } from '../support/fast-retention.ts';
import { operatorIssuer } from '../support/operator-token.ts';
import { addSoftwarePasskey, passkeySignIn, verifiedAccount } from '../support/passkey-account.ts';
import type { SoftwarePasskey } from '../support/software-passkey.ts';
import { sqliteCounts } from '../support/sqlite-counts.ts';

const python = requireTool('aiosmtpd');

const SIGN_INS = 200;
const MAX_ROWS_LEFT = 40;
const WAIT_MS = 20_000;

/** Rows of every table, and the events of credential streams. */
const rows = (host: MailingHost) =>
  sqliteCounts(host.host.dataDir, { credentialEvents: "SELECT COUNT(*) AS n FROM app_events WHERE stream_id LIKE 'auth-passkey-%' AND stream_id NOT LIKE 'auth-passkeys-%'" });

describe.skipIf(!python)('passkey use history on the Node host (sqlite)', () => {
  let host: MailingHost;
  let issuer: Awaited<ReturnType<typeof operatorIssuer>>;

  beforeAll(async () => {
    issuer = await operatorIssuer();
    host = await startMailingHost(python!, {
      args: ['--db', 'sqlite', ...FAST_RETENTION_ARGS],
      env: { ...issuer.env, ...FAST_RETENTION_ENV },
    });
  }, 60_000);
  afterAll(() => host?.stop());

  it(`${SIGN_INS} passkey sign-ins with 2 s sessions leave at most ${MAX_ROWS_LEFT} rows more ${WAIT_MS / 1000} s later; the totals count them all`, {
    timeout: 480_000,
  }, async () => {
    const base = host.url;
    const signIn = (key: SoftwarePasskey, counter?: number) => passkeySignIn(host, key, counter === undefined ? {} : { counter });
    const status = async () => {
      const response = await fetch(`${base}/api/auth/storage/status`, { headers: { authorization: `Bearer ${await issuer.mint()}` } });
      expect(response.status).toBe(200);
      return ((await response.json()) as { events: Record<string, number> }).events;
    };

    // A verified account with a passkey, added with the password.
    const owner = await verifiedAccount(host);
    const { key } = await addSoftwarePasskey(host, owner.sessionId, 'Test key');
    // The sessions so far have ended and gone: the store is at its resting size.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    const countsBefore = await status();
    const before = rows(host);

    for (let i = 0; i < SIGN_INS; i++) {
      const response = await signIn(key);
      expect(response.status, await response.clone().text()).toBe(200);
    }
    await new Promise((resolve) => setTimeout(resolve, WAIT_MS));

    const after = rows(host);
    expect.soft(after.credentialEvents, "the credential's events").toBe(1);
    expect(after.total - before.total, 'rows more than before').toBeLessThanOrEqual(MAX_ROWS_LEFT);
    const countsAfter = await status();
    expect(countsAfter['auth_passkey_used']).toBe((countsBefore['auth_passkey_used'] ?? 0) + SIGN_INS);
    expect(countsAfter['auth_session_issued']).toBe(countsBefore['auth_session_issued']! + SIGN_INS);

    // A clone of the authenticator, one use behind, is refused; the authenticator itself goes on.
    const clone = await signIn(key, key.counter);
    expect(clone.status).toBe(401);
    expect((await signIn(key)).status).toBe(200);
    expect(host.logs().filter((l) => l['code'] === 'maintenance_failed' || l['code'] === 'auth_passkey_truncate_failed')).toEqual([]);
  });
});
