/**
 * Email folding (docs/security.md): a provider-verified address that only *looks like* someone
 * else's once Unicode-folded (`\u212Aim@example.test` with a Kelvin sign, `\u2174ictim@…` with a
 * roman numeral) must not sign into the account of `kim@…` / `victim@…`. Through the real host
 * and component, with the local provider vouching for each address. Also: the domain is compared
 * in its IDNA form inside the component, as on Node.
 */
import { describe, expect, it } from 'vitest';
import { authorize, deliver, type Provider, SESSION_COOKIE, sessionCookieOf, type Service, withService } from './support.ts';

let service: Service;
withService((started) => {
  service = started;
});

interface SessionBody {
  authenticated: boolean;
  user_id?: string;
  email?: string | null;
}

/** Signs in through `provider` as the provider account (subject, verified email); returns the session. */
async function signInAs(provider: Provider, subject: string, email: string): Promise<SessionBody> {
  Object.assign(service.fixture.provider.user, { subject, email, emailVerified: true });
  const callback = await authorize(service, provider);
  const response = await deliver(callback.target, callback.method, callback.params);
  expect(response.status).toBeLessThan(400);
  const sessionId = sessionCookieOf(response)!;
  service.secretsSeen.add(sessionId);
  const session = await fetch(`${service.host.url}/api/auth/session`, { headers: { cookie: `${SESSION_COOKIE}=${sessionId}` } });
  return (await session.json()) as SessionBody;
}

describe('provider sign-in with look-alike verified emails', () => {
  it.each([
    ['provider_a', 'kim@example.test', '\u212Aim@example.test'],
    ['provider_b', 'victim@example.test', '\u2174ictim@example.test'],
  ] as const)('%s: a verified %j account is not reached by a verified %j', async (provider, ownerEmail, lookAlike) => {
    const owner = await signInAs(provider, `owner-${ownerEmail}`, ownerEmail);
    expect(owner).toMatchObject({ authenticated: true, email: ownerEmail });
    const attacker = await signInAs(provider, `attacker-${ownerEmail}`, lookAlike);
    expect(attacker.authenticated).toBe(true);
    expect(attacker.user_id).not.toBe(owner.user_id);
    expect(attacker.email).not.toBe(ownerEmail);
    // The owner's own provider account still reaches the owner's account.
    expect((await signInAs(provider, `owner-${ownerEmail}`, ownerEmail)).user_id).toBe(owner.user_id);
  });
});

describe('the domain in its IDNA form, inside the component', () => {
  const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const password = 'a long enough password';

  it('an account registered at Bücher.Example signs in as kim@xn--bcher-kva.example; a Kelvin-sign local part is a 400', async () => {
    expect((await fetch(`${service.host.url}/api/auth/password/register`, json({ email: 'kim@Bücher.Example', password }))).status).toBe(202);
    const login = await fetch(`${service.host.url}/api/auth/password/login`, json({ email: 'KIM@xn--bcher-kva.example', password }));
    expect(login.status).toBe(200);
    expect(((await login.json()) as SessionBody).email).toBe('kim@xn--bcher-kva.example');
    const kelvin = await fetch(`${service.host.url}/api/auth/password/register`, json({ email: '\u212Aim@xn--bcher-kva.example', password }));
    expect(kelvin.status).toBe(400);
  });
});
