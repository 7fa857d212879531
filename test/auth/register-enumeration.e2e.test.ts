/**
 * Account enumeration, the attack: registration must not tell whether an email is taken (OWASP
 * Authentication Cheat Sheet, "Account enumeration"). An attacker registers a known-taken email and
 * a fresh one, in JSON and as the /login form would, and compares the answers; then checks that
 * the taken one changed nothing: the owner's password still works and no event was written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type HostProcess } from '../../harness/host-process.ts';
import { operatorIssuer, type OperatorIssuer } from '../support/operator-token.ts';
import { PASSWORD, postForm, postJson, register, sessionIdFrom, uniqueEmail } from './support.ts';

let host: HostProcess;
let issuer: OperatorIssuer;

beforeAll(async () => {
  issuer = await operatorIssuer();
  host = await startHost({ env: { AUTH_SYSTEM_TOKEN_JWKS: issuer.publicJwks } });
});
afterAll(async () => {
  await host?.stop();
});

/** Status, headers without Date, and body bytes: everything an attacker can compare. */
async function observable(response: Response): Promise<{ status: number; headers: Array<[string, string]>; body: string }> {
  const headers = [...response.headers.entries()].filter(([name]) => name !== 'date');
  return { status: response.status, headers, body: await response.text() };
}

async function totalEvents(): Promise<number> {
  const response = await fetch(`${host.url}/api/auth/storage/status`, { headers: { authorization: `Bearer ${await issuer.mint()}` } });
  expect(response.status).toBe(200);
  return ((await response.json()) as { total: number }).total;
}

describe('registration of a taken email', () => {
  it('answers JSON exactly as for a free email, sets no cookie, and writes nothing', async () => {
    const victim = await register(host.url);
    const before = await totalEvents();
    const taken = await observable(await postJson(host.url, '/api/auth/password/register', { email: victim.email.toUpperCase(), password: 'attacker chosen password' }));
    const afterTaken = await totalEvents();
    const free = await observable(await postJson(host.url, '/api/auth/password/register', { email: uniqueEmail('free'), password: 'attacker chosen password' }));
    expect(taken).toEqual(free);
    expect(taken.status).toBe(202);
    expect(taken.headers.some(([name]) => name === 'set-cookie')).toBe(false);
    expect(afterTaken).toBe(before);
    expect(await totalEvents()).toBeGreaterThan(afterTaken);
    // The owner's password still works; the attacker's does not.
    expect((await postJson(host.url, '/api/auth/password/login', { email: victim.email, password: PASSWORD })).status).toBe(200);
    expect((await postJson(host.url, '/api/auth/password/login', { email: victim.email, password: 'attacker chosen password' })).status).toBe(401);
  });

  it('answers the /login form exactly as for a free email (same redirect, same echo cookie, no session)', async () => {
    const victim = await register(host.url);
    // Same typed text both times, so the form echo cookie is the same; only existence differs.
    const fresh = uniqueEmail('form');
    const taken = await observable(await postForm(host.url, '/api/auth/password/register', { email: victim.email, password: 'attacker chosen password', next: '/dashboard' }));
    const free = await observable(await postForm(host.url, '/api/auth/password/register', { email: fresh, password: 'attacker chosen password', next: '/dashboard' }));
    const withoutEcho = (o: typeof taken) => ({ ...o, headers: o.headers.map(([n, v]): [string, string] => [n, n === 'set-cookie' ? v.replace(/=[^;]*/, '=…') : v]) });
    expect(withoutEcho(taken)).toEqual(withoutEcho(free));
    expect(taken.status).toBe(303);
    expect(taken.headers).toContainEqual(['location', '/login?notice=registered&next=%2Fdashboard']);
    const cookies = taken.headers.filter(([name]) => name === 'set-cookie').map(([, v]) => v);
    expect(cookies.every((c) => c.startsWith('wasi_auth_form_email='))).toBe(true);
    expect(sessionIdFrom(new Response(null, { headers: taken.headers }))).toBeUndefined();
  });

  it('logs the outcome by code only, never the email', async () => {
    const victim = await register(host.url);
    await postJson(host.url, '/api/auth/password/register', { email: victim.email, password: 'attacker chosen password' });
    const output = host.output.join('\n');
    expect(output).toContain('"code":"auth_register_taken"');
    expect(output).not.toContain(victim.email);
  });
});
