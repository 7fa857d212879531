/**
 * Erased means gone from the files, not only from the rows: a real server (the Node host on
 * SQLite, and `wasmtime serve` on its file store), an account with a session from a second device,
 * its address verified through a real SMTP server (a passkey needs it), a passkey, and the
 * "passkey added" mail waiting in the outbox (the SMTP server gone, or never drained), then
 * `DELETE /api/auth/account` over HTTP. As soon as it has answered 204, every byte and file name of
 * the data directory (SQLite's database, -wal and -shm files; the file store's files) is searched
 * for the address, its SHA-256 (what names the account's streams and keys; the file store spells
 * names in hex, so that too), the passkey's credential id and the device hint: not one hit. Before
 * the deletion each of them is found there, so the search looks in the right place.
 *
 * The same for an account the administration API listed, searched by its address, showed,
 * disabled (which rewrites its read-model document), mailed a reset link and then deleted with
 * `DELETE /api/admin/users/{id}`: no index, document name or newest commit keeps its address.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startHost } from '../../harness/host-process.ts';
import { requireTool } from '../../harness/tools.ts';
import { startWasmtime } from '../../harness/wasmtime-process.ts';
import { normalizeEmail } from '../../src/auth/domain/email.ts';
import { sha256Hex } from '../../src/contract/tokens.ts';
import { drainedMailTo } from '../support/mail-drain.ts';
import { operatorIssuer } from '../support/operator-token.ts';
import { mailingServer, type MailingServer } from '../support/mailing-server.ts';
import { addSoftwarePasskey, verifiedAccount } from '../support/passkey-account.ts';
import { rawFiles } from '../support/raw-store.ts';
import { linkIn, startSmtpSink } from '../support/smtp-sink.ts';
import { cookieHeader, PASSWORD, postJson, register, uniqueEmail } from './support.ts';

const wasmtime = requireTool('wasmtime');
const python = requireTool('aiosmtpd');
const DEVICE_UA = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const operator = await operatorIssuer();

interface Server extends MailingServer {
  dataDir: string;
  /** From now on mail to the account waits in the outbox, with its address (the SMTP server gone, or never drained again). */
  mailStays(): Promise<void>;
  /** Waits until the mail to the account is queued (and, where a host delivers, tried). */
  mailQueued(): Promise<void>;
}

const servers: Array<{ name: string; start: (port: number, origin: string) => Promise<Server>; skip?: boolean }> = [
  {
    name: 'the Node host on SQLite',
    skip: python === undefined,
    async start(port, origin) {
      const sink = await startSmtpSink(python!);
      const host = await startHost({ port, env: { ...operator.env, AUTH_PUBLIC_BASE_URL: origin, SMTP_URL: sink.url, MAIL_RETRY_SECONDS: '3600' } });
      const mailTo = (email: string, subject: string) => sink.waitFor((m) => m.envelope_to.includes(email) && m.subject === subject);
      return {
        ...mailingServer(host, sink, origin, mailTo),
        dataDir: host.dataDir,
        // The SMTP server goes: later mail waits in the outbox, with the address.
        mailStays: () => sink.stop(),
        mailQueued: () => expect.poll(() => host.logs().some((l) => l['code'] === 'mail_delivery_failed'), { timeout: 20_000 }).toBe(true),
      };
    },
  },
  {
    name: 'wasmtime serve on its file store',
    skip: wasmtime === undefined || python === undefined,
    async start(port, origin) {
      const sink = await startSmtpSink(python!);
      const server = await startWasmtime({ port, instanceReuse: 16, guestEnv: { ...operator.env, AUTH_PUBLIC_BASE_URL: origin } }, wasmtime!.path);
      // The component only queues: a mail waited for is drained; after that nothing drains, so later mail stays queued.
      const mailTo = (email: string, subject: string) => drainedMailTo(server.dataDir, sink, email, subject);
      return { ...mailingServer(server, sink, origin, mailTo), dataDir: server.dataDir, mailStays: async () => undefined, mailQueued: async () => undefined };
    },
  },
];

describe.each(servers)('account erasure in the files: $name', ({ start, skip }) => {
  let server: Server;
  let origin: string;
  beforeAll(async () => {
    if (skip) return;
    const port = await freePort();
    origin = `http://localhost:${port}`;
    server = await start(port, origin);
  }, 600_000);
  afterAll(async () => {
    await server?.stop();
  });
  /** The link to `path` in the mail `subject` to `email`, delivered (before mailStays). */
  const mailedLink = async (email: string, subject: string, path: string) => linkIn(await server.mailTo(email, subject), path);

  // First: the SMTP server is still up for the links it needs.
  it.skipIf(skip)('after a change of address: no copy of the old, the new or a pending address, their hashes or the address record', { timeout: 120_000 }, async () => {
    const email = uniqueEmail('changed-from');
    const moved = uniqueEmail('changed-to');
    const pending = uniqueEmail('pending');
    const account = await register(server.url, email);
    const browser = { origin, 'sec-fetch-site': 'same-origin', ...cookieHeader(account.sessionId) };
    expect((await postJson(server.url, '/api/auth/email/change', { email: moved, password: PASSWORD }, browser)).status).toBe(202);
    const token = new URL(await mailedLink(moved, 'Confirm your new email address', '/confirm-email-change')).searchParams.get('token');
    expect((await postJson(server.url, '/api/auth/email/change/confirm', { token }, { origin, 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    await mailedLink(email, 'Your email address was changed', '/undo-email-change');
    // A second change left pending: its address and link wait in the store.
    expect((await postJson(server.url, '/api/auth/email/change', { email: pending, password: PASSWORD }, browser)).status).toBe(202);
    await mailedLink(pending, 'Confirm your new email address', '/confirm-email-change');

    // The address record's stream (its name, and as the file store spells names). Not the bare user
    // id: the file store's projection log keeps the deletion's own commit, which names the documents
    // it deletes by user id (a random id, no personal data).
    const record = `auth-address-${account.userId}`;
    const traces: Record<string, string> = { record, recordInNames: Buffer.from(record).toString('hex') };
    for (const [name, address] of Object.entries({ old: email, moved, pending })) {
      const hash = await sha256Hex(normalizeEmail(address));
      Object.assign(traces, { [name]: address, [`${name}Hash`]: hash, [`${name}HashInNames`]: Buffer.from(hash).toString('hex') });
    }
    const before = rawFiles(server.dataDir);
    expect([traces['old'], traces['moved'], traces['pending']].every((value) => before.includes(value!))).toBe(true);
    expect(before.includes(record) || before.includes(traces['recordInNames']!)).toBe(true);

    const deleted = await fetch(`${server.url}/api/auth/account`, {
      method: 'DELETE',
      headers: { ...cookieHeader(account.sessionId), 'content-type': 'application/json' },
      body: JSON.stringify({ password: PASSWORD }),
    });
    expect(deleted.status).toBe(204);
    const after = rawFiles(server.dataDir);
    const found = Object.entries(traces).flatMap(([what, value]) => {
      const hits = after.split(value).length - 1;
      return hits > 0 ? [`${what}: ${hits}`] : [];
    });
    expect(found).toEqual([]);
  });

  it.skipIf(skip)('leaves no copy of the address, its hash, the credential id or the device hint in any file', { timeout: 120_000 }, async () => {
    const email = uniqueEmail('erased');
    const account = await verifiedAccount(server, email);
    expect((await postJson(server.url, '/api/auth/password/login', { email, password: PASSWORD }, { 'user-agent': DEVICE_UA })).status).toBe(200);
    await server.mailStays();
    const { key } = await addSoftwarePasskey(server, account.sessionId, 'Erased key');
    await server.mailQueued();

    const hash = await sha256Hex(normalizeEmail(email));
    const traces = { address: email, hash, hashInNames: Buffer.from(hash).toString('hex'), credential: key.id, device: 'Firefox on Linux' };
    const before = rawFiles(server.dataDir);
    expect(before.includes(traces.address) && before.includes(traces.hash) && before.includes(traces.credential) && before.includes(traces.device)).toBe(true);

    const deleted = await fetch(`${server.url}/api/auth/account`, {
      method: 'DELETE',
      headers: { ...cookieHeader(account.sessionId), 'content-type': 'application/json' },
      body: JSON.stringify({ password: PASSWORD }),
    });
    expect(deleted.status).toBe(204);

    expect(tracesIn(rawFiles(server.dataDir), traces)).toEqual([]);
  });

  it.skipIf(skip)('an account the administration API listed, searched, disabled and deleted leaves no copy of its address either', { timeout: 120_000 }, async () => {
    const email = uniqueEmail('admin-erased');
    const account = await register(server.url, email);
    expect((await postJson(server.url, '/api/auth/password/login', { email, password: PASSWORD }, { 'user-agent': DEVICE_UA })).status).toBe(200);
    const admin = async (method: string, path: string) => fetch(`${server.url}${path}`, { method, headers: { authorization: `Bearer ${await operator.mint()}` } });
    const listed = async (query: string) => {
      const response = await admin('GET', `/api/admin/users${query}`);
      expect(response.status).toBe(200);
      return (await response.json()) as { users: Array<{ id: string; email: string | null }>; next: string | null };
    };
    const line = expect.objectContaining({ id: account.userId, email });
    expect((await listed('?limit=100')).users).toContainEqual(line);
    expect((await listed(`?q=${encodeURIComponent(email.slice(0, email.indexOf('@') + 1))}`)).users).toEqual([line]);
    expect((await admin('GET', `/api/admin/users/${account.userId}`)).status).toBe(200);
    expect(await (await admin('POST', `/api/admin/users/${account.userId}/disable`)).json()).toMatchObject({ disabled: true, sessions_ended: 2 });
    expect((await listed(`?q=${encodeURIComponent(email)}`)).users).toEqual([expect.objectContaining({ id: account.userId, disabled: true })]);
    expect((await admin('POST', `/api/admin/users/${account.userId}/reset-link`)).status).toBe(202);
    await server.mailQueued();

    const hash = await sha256Hex(normalizeEmail(email));
    const traces = { address: email, hash, hashInNames: Buffer.from(hash).toString('hex'), device: 'Firefox on Linux' };
    expect(tracesIn(rawFiles(server.dataDir), { address: email, hash })).toEqual(['address', 'hash']);

    expect((await admin('DELETE', `/api/admin/users/${account.userId}`)).status).toBe(204);
    expect(tracesIn(rawFiles(server.dataDir), traces)).toEqual([]);
    expect((await listed(`?q=${encodeURIComponent(email)}`)).users).toEqual([]);
  });
});

/** Which of `traces` occur in `files`. */
function tracesIn(files: string, traces: Record<string, string>): string[] {
  return Object.entries(traces).flatMap(([what, value]) => {
    const hits = files.split(value).length - 1;
    return hits > 0 ? [what] : [];
  });
}
