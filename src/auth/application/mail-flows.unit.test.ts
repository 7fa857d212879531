/**
 * Email verification and password reset over the in-memory platform: the links mailed, and every
 * misuse refused with nothing changed (reused, expired, superseded, another account's, after a
 * password change).
 */
import { describe, expect, it } from 'vitest';
import type { MemoryPlatform } from '../../platform/testing/memory-platform.ts';
import {
  changePassword,
  findActiveSession,
  linkOrCreateUserForExternalIdentity,
  loginWithPassword,
  registerWithPassword,
  requestPasswordReset,
  resendVerification,
  resetPassword,
  sha256Hex,
  verificationState,
  verifyEmail,
  type AuthDeps,
} from './index.ts';
import { errorCode, linkToken, memoryAuth } from './testing/memory-auth.ts';

const CLIENT = '203.0.113.9';

const alice = { email: 'Alice@Example.com', password: 'correct horse battery' };
const bob = { email: 'bob@example.com', password: 'another long secret' };

async function registered(platform: MemoryPlatform, deps: AuthDeps, who: typeof alice) {
  await registerWithPassword(deps, who);
  platform.respond();
  const signedIn = await loginWithPassword(deps, who);
  const session = (await findActiveSession(deps, signedIn.session.sessionId))!;
  return { signedIn, session };
}

describe('email verification', () => {
  it('registration mails a link from the public base; following it verifies the address once', async () => {
    const { platform, deps } = memoryAuth();
    const { session } = await registered(platform, deps, alice);
    expect(platform.mail.sent).toHaveLength(1);
    expect(platform.mail.sent[0]).toMatchObject({ recipient: 'alice@example.com', sender: 'Counter <no-reply@accounts.example.test>' });
    expect(await verificationState(deps, session)).toBe('unverified');
    const token = await linkToken(platform, 'alice@example.com', '/verify-email');
    await verifyEmail(deps, token, undefined);
    expect(await verificationState(deps, session)).toBe('verified');
    expect(platform.events.readAll(0n, 100).filter((e) => e.eventType === 'auth_email_verified')).toHaveLength(1);
    // Reused: refused, nothing more written.
    expect(await errorCode(verifyEmail(deps, token, undefined))).toBe('not_found');
    expect(platform.events.readAll(0n, 100).filter((e) => e.eventType === 'auth_email_verified')).toHaveLength(1);
    // The secret is stored only as a hash, and the queued mail never held it.
    const secret = token.split('.')[1]!;
    expect(platform.keyValue.dump()).not.toContain(secret);
    expect(platform.mail.sent.map((m) => m.text).join()).not.toContain(secret);
  });

  it('refuses a link whose secret is not the delivered one, and the link still works after', async () => {
    const { platform, deps } = memoryAuth();
    const { session } = await registered(platform, deps, alice);
    const token = await linkToken(platform, 'alice@example.com', '/verify-email');
    const [id, secret] = token.split('.') as [string, string];
    expect(platform.keyValue.dump()).toContain(await sha256Hex(secret));
    // The id alone, as the outbox and the store's files show it, with any secret.
    const forged = `${id}.${secret.startsWith('A') ? 'B' : 'A'}${secret.slice(1)}`;
    expect(await errorCode(verifyEmail(deps, forged, undefined))).toBe('not_found');
    expect(await errorCode(verifyEmail(deps, `${id}.${'A'.repeat(43)}`, undefined))).toBe('not_found');
    expect(await verificationState(deps, session)).toBe('unverified');
    expect(await errorCode(verifyEmail(deps, token, undefined))).toBe('ok');
    expect(await verificationState(deps, session)).toBe('verified');
  });

  it('a verified password account is still never joined by a provider sign-in with the same verified email', async () => {
    const { platform, deps } = memoryAuth();
    const { session } = await registered(platform, deps, alice);
    await verifyEmail(deps, await linkToken(platform, 'alice@example.com', '/verify-email'), session);
    expect(await verificationState(deps, session)).toBe('verified');
    const signIn = await linkOrCreateUserForExternalIdentity(deps, { provider: 'provider_a', subject: 'sub-1', email: alice.email, emailVerified: true });
    expect(signIn.userId).not.toBe(session.userId);
    expect(signIn.created).toBe(true);
  });

  it('refuses an expired link, a superseded one, and one opened while signed in to another account', async () => {
    const { platform, deps } = memoryAuth();
    const { session } = await registered(platform, deps, alice);
    const first = await linkToken(platform, 'alice@example.com', '/verify-email');
    await resendVerification(deps, session, CLIENT);
    const second = await linkToken(platform, 'alice@example.com', '/verify-email');
    expect(second).not.toBe(first);
    expect(await errorCode(verifyEmail(deps, first, undefined))).toBe('not_found');
    const bobSession = (await registered(platform, deps, bob)).session;
    expect(await errorCode(verifyEmail(deps, second, bobSession))).toBe('forbidden');
    expect(await verificationState(deps, session)).toBe('unverified');
    platform.clock.advance(24 * 3_600_000 + 1);
    expect(await errorCode(verifyEmail(deps, second, undefined))).toBe('not_found');
    expect(await verificationState(deps, session)).toBe('unverified');
  });

  it('limits "resend" to a few mails an hour', async () => {
    const { platform, deps } = memoryAuth();
    const { session } = await registered(platform, deps, alice);
    await resendVerification(deps, session, CLIENT);
    await resendVerification(deps, session, CLIENT);
    expect(await errorCode(resendVerification(deps, session, CLIENT))).toBe('rate_limited');
    expect(platform.mail.sent).toHaveLength(3);
  });
});

describe('password reset', () => {
  it('mails a link to a known address only, answering both alike; the link sets the password and ends every session', async () => {
    const { platform, deps } = memoryAuth();
    const { signedIn } = await registered(platform, deps, alice);
    const before = platform.mail.sent.length;
    await requestPasswordReset(deps, 'nobody@example.com', CLIENT);
    platform.respond();
    expect(platform.mail.sent.length).toBe(before);
    await requestPasswordReset(deps, 'ALICE@example.com', CLIENT);
    platform.respond();
    const token = await linkToken(platform, 'alice@example.com', '/reset-password');
    await resetPassword(deps, token, 'a brand new password', undefined);
    expect(await findActiveSession(deps, signedIn.session.sessionId)).toBeUndefined();
    expect(await errorCode(loginWithPassword(deps, alice))).toBe('invalid_credentials');
    expect(await errorCode(loginWithPassword(deps, { ...alice, password: 'a brand new password' }))).toBe('ok');
    expect(platform.mail.sent.at(-1)).toMatchObject({ recipient: 'alice@example.com', subject: 'Your password was changed' });
    // Reused: refused, the password stays.
    expect(await errorCode(resetPassword(deps, token, 'yet another password', undefined))).toBe('not_found');
    expect(await errorCode(loginWithPassword(deps, { ...alice, password: 'a brand new password' }))).toBe('ok');
  });

  it('refuses an expired link, one superseded by a newer, one outlived by a password change, another account’s', async () => {
    const { platform, deps } = memoryAuth();
    const { session } = await registered(platform, deps, alice);
    const bobSession = (await registered(platform, deps, bob)).session;
    const reset = async () => {
      await requestPasswordReset(deps, alice.email, CLIENT);
      platform.respond();
      return await linkToken(platform, 'alice@example.com', '/reset-password');
    };
    const older = await reset();
    const newer = await reset();
    expect(await errorCode(resetPassword(deps, older, 'a brand new password', undefined))).toBe('not_found');
    expect(await errorCode(resetPassword(deps, newer, 'a brand new password', bobSession))).toBe('forbidden');
    await changePassword(deps, session, alice.password, 'changed from the page', '192.0.2.1');
    expect(await errorCode(resetPassword(deps, newer, 'a brand new password', undefined))).toBe('not_found');
    const expiring = await reset();
    platform.clock.advance(30 * 60_000 + 1);
    expect(await errorCode(resetPassword(deps, expiring, 'a brand new password', undefined))).toBe('not_found');
    expect(await errorCode(loginWithPassword(deps, { ...alice, password: 'changed from the page' }))).toBe('ok');
    expect(await errorCode(loginWithPassword(deps, bob))).toBe('ok');
  });

  it('sends at most a few reset mails an hour, answering alike', async () => {
    const { platform, deps } = memoryAuth();
    await registered(platform, deps, alice);
    for (let i = 0; i < 5; i++) {
      await requestPasswordReset(deps, alice.email, CLIENT);
      platform.respond();
    }
    expect(platform.mail.sent.filter((m) => m.subject === 'Reset your password')).toHaveLength(3);
  });
});

describe('changePassword()', () => {
  it('needs the current password; ends the other sessions, keeps this one', async () => {
    const { platform, deps } = memoryAuth();
    const { session, signedIn } = await registered(platform, deps, alice);
    const other = await loginWithPassword(deps, alice);
    expect(await errorCode(changePassword(deps, session, 'not the password', 'a brand new password', '192.0.2.1'))).toBe('invalid_credentials');
    await changePassword(deps, session, alice.password, 'a brand new password', '192.0.2.1');
    expect(await findActiveSession(deps, other.session.sessionId)).toBeUndefined();
    expect(await findActiveSession(deps, signedIn.session.sessionId)).toBeDefined();
    expect(await errorCode(loginWithPassword(deps, { ...alice, password: 'a brand new password' }))).toBe('ok');
  });
});

describe('mail budgets beyond the address', () => {
  const PASSWORD = 'correct horse battery';
  /** Registers each address from `client` and lets the verification mails go; the recipients mailed. */
  async function registerAll(platform: MemoryPlatform, deps: AuthDeps, emails: string[], client = CLIENT): Promise<string[]> {
    const before = platform.mail.sent.length;
    for (const email of emails) {
      await registerWithPassword(deps, { email, password: PASSWORD }, client);
      platform.respond();
    }
    return platform.mail.sent.slice(before).map((m) => m.recipient);
  }
  const spent = (platform: MemoryPlatform, budget: string) => platform.logger.withCode('auth_mail_budget_spent').filter((l) => l.fields['budget'] === budget).length;

  it('sub-addresses of one mailbox share its budget', async () => {
    const { platform, deps } = memoryAuth({ AUTH_MAIL_MAX_PER_MAILBOX_PER_HOUR: '3', AUTH_MAIL_MAX_PER_CLIENT_PER_HOUR: '100' });
    const mailed = await registerAll(
      platform,
      deps,
      Array.from({ length: 10 }, (_, n) => `Box+${n}@example.org`),
    );
    expect(mailed).toEqual(['box+0@example.org', 'box+1@example.org', 'box+2@example.org']);
    expect(spent(platform, 'mailbox')).toBe(7);
    // Another mailbox of the domain is not concerned.
    expect(await registerAll(platform, deps, ['other@example.org'])).toEqual(['other@example.org']);
  });

  it('one client causes at most its budget, whatever the mailboxes; another client is not concerned', async () => {
    const { platform, deps } = memoryAuth({ AUTH_MAIL_MAX_PER_CLIENT_PER_HOUR: '2' });
    expect(await registerAll(platform, deps, ['a@example.org', 'b@example.net', 'c@example.com'])).toEqual(['a@example.org', 'b@example.net']);
    expect(spent(platform, 'client')).toBe(1);
    expect(await registerAll(platform, deps, ['d@example.org'], '198.51.100.7')).toEqual(['d@example.org']);
  });

  it('one domain gets at most its budget from all clients', async () => {
    const { platform, deps } = memoryAuth({ AUTH_MAIL_MAX_PER_DOMAIN_PER_HOUR: '2' });
    const mailed = [
      ...(await registerAll(platform, deps, ['a@example.org'], '198.51.100.1')),
      ...(await registerAll(platform, deps, ['b@example.org'], '198.51.100.2')),
      ...(await registerAll(platform, deps, ['c@example.org'], '198.51.100.3')),
    ];
    expect(mailed).toEqual(['a@example.org', 'b@example.org']);
    expect(spent(platform, 'domain')).toBe(1);
  });

  it('"resend" past the mailbox budget is refused with 429', async () => {
    const { platform, deps } = memoryAuth({ AUTH_MAIL_MAX_PER_MAILBOX_PER_HOUR: '1' });
    const { session } = await registered(platform, deps, { email: 'carol+x@example.org', password: PASSWORD });
    expect(await errorCode(resendVerification(deps, session, CLIENT))).toBe('rate_limited');
  });
});
