/**
 * A passkey's use history stops growing (docs/storage.md, "Retention"), on a real Node host over
 * SQLite, counting the raw store's rows: 200 passkey sign-ins with a software authenticator over
 * HTTP, a 2 s session lifetime, AUTH_SESSION_RETENTION_SECONDS=1 and a maintenance pass every
 * second. What must hold: 20 s after the last sign-in the store holds at most 40 rows more than
 * before them (each sign-in's session went with retention; the credential's stream keeps its
 * newest use only), the storage-status totals still count every use, and a cloned authenticator
 * (a counter that did not move forward) is still refused.
 */
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startHost, type HostProcess } from '../../harness/host-process.ts';
import { requireTool } from '../../harness/tools.ts';
import { operatorIssuer } from '../support/operator-token.ts';
import { linkIn, startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { SoftwarePasskey } from '../support/software-passkey.ts';
import { cookieHeader, PASSWORD, postJson, register } from '../auth/support.ts';

const python = requireTool('aiosmtpd');

const SIGN_INS = 200;
const MAX_ROWS_LEFT = 40;
const WAIT_MS = 20_000;

/** Rows of every table, and the events of credential streams. */
function rows(host: HostProcess): { total: number; credentialEvents: number } {
  const db = new DatabaseSync(join(host.dataDir, 'app.sqlite'), { readOnly: true });
  try {
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as Array<{ name: string }>).map((r) => r.name);
    const count = (sql: string) => Number((db.prepare(sql).get() as { n: number }).n);
    return {
      total: tables.reduce((sum, t) => sum + count(`SELECT COUNT(*) AS n FROM "${t}"`), 0),
      credentialEvents: count("SELECT COUNT(*) AS n FROM app_events WHERE stream_id LIKE 'auth-passkey-%' AND stream_id NOT LIKE 'auth-passkeys-%'"),
    };
  } finally {
    db.close();
  }
}

describe.skipIf(!python)('passkey use history on the Node host (sqlite)', () => {
  let host: HostProcess;
  let sink: SmtpSink;
  let origin: string;
  let issuer: Awaited<ReturnType<typeof operatorIssuer>>;

  beforeAll(async () => {
    sink = await startSmtpSink(python!);
    issuer = await operatorIssuer();
    const port = await freePort();
    origin = `http://localhost:${port}`;
    host = await startHost({
      port,
      args: ['--db', 'sqlite', '--maintenance-interval', '1'],
      env: {
        ...issuer.env,
        AUTH_PUBLIC_BASE_URL: origin,
        SMTP_URL: sink.url,
        AUTH_SESSION_TTL_SECONDS: '2',
        AUTH_SESSION_RETENTION_SECONDS: '1',
        AUTH_CLIENT_MAX_ATTEMPTS_PER_MINUTE: '100000',
        AUTH_GLOBAL_MAX_SIGNUPS_PER_MINUTE: '100000',
      },
    });
  }, 60_000);
  afterAll(async () => {
    await host?.stop();
    await sink?.stop();
  });

  it(`${SIGN_INS} passkey sign-ins with 2 s sessions leave at most ${MAX_ROWS_LEFT} rows more ${WAIT_MS / 1000} s later; the totals count them all`, {
    timeout: 480_000,
  }, async () => {
    const base = host.url;
    const browser = { origin, 'sec-fetch-site': 'same-origin' };
    const call = (path: string, body: unknown, sessionId?: string) => postJson(base, path, body, { ...browser, ...(sessionId ? cookieHeader(sessionId) : {}) });
    const signIn = async (key: SoftwarePasskey, counter?: number) => {
      const options = (await (await call('/api/auth/passkeys/authentication/options', {})).json()) as { challenge: string; rpId?: string };
      return call('/api/auth/passkeys/authentication/verify', { response: key.assert(options, { origin, ...(counter === undefined ? {} : { counter }) }) });
    };
    const status = async () => {
      const response = await fetch(`${base}/api/auth/storage/status`, { headers: { authorization: `Bearer ${await issuer.mint()}` } });
      expect(response.status).toBe(200);
      return ((await response.json()) as { events: Record<string, number> }).events;
    };

    // A verified account with a passkey, added with the password.
    const owner = await register(base);
    const link = linkIn(await sink.waitFor((m) => m.envelope_to.includes(owner.email) && m.subject === 'Confirm your email address'), '/verify-email');
    expect((await call('/api/auth/email/verify', { token: new URL(link).searchParams.get('token') })).status).toBe(200);
    const key = new SoftwarePasskey();
    const creation = await call('/api/auth/passkeys/registration/options', { password: PASSWORD }, owner.sessionId);
    expect(creation.status).toBe(200);
    const registered = await call('/api/auth/passkeys/registration/verify', { response: key.register(await creation.json(), { origin }), name: 'Test key' }, owner.sessionId);
    expect(registered.status, await registered.clone().text()).toBe(201);
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
