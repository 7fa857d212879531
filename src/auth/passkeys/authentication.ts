/**
 * Signing in with a passkey (WebAuthn Level 3 §7.2 "Verifying an Authentication Assertion"):
 * options without `allowCredentials` (the authenticator offers its discoverable credentials: the
 * "Sign in with a passkey" button and the autofill, `mediation: "conditional"`), user
 * verification required. The response's credential must be registered and not removed, its
 * `userHandle` must name the credential's owner (§7.2 step 6), and @simplewebauthn/server checks
 * type, challenge, origin, RP ID hash, the UP and UV flags, the signature with the stored public
 * key, and that the signature counter moved forward (§6.1.1). The new counter is recorded against
 * the revision read, so of two uses of one state only one signs in.
 *
 * A passkey with user verification is two factors (possession of the key, and the PIN or
 * biometric the authenticator checked): the session is `aal2` (NIST SP 800-63B §4.2) and its
 * `amr` (RFC 8176 §2) says `hwk` (a key held by one device) or `swk` (a synced passkey) and `mfa`.
 */
import { generateAuthenticationOptions, verifyAuthenticationResponse, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import type { AuthDeps } from '../application/deps.ts';
import { issueSession, type IssuedSession } from '../application/sessions.ts';
import { sha256Hex } from '../application/secrets.ts';
import { AUTH_COLLECTIONS, readAuthDocument } from '../application/projection.ts';
import { CHALLENGE_TTL_MS, issueChallenge, takeChallenge } from './challenges.ts';
import { requireRelyingParty } from './relying-party.ts';
import { refused } from './refusal.ts';
import { asAuthenticationResponse, challengeOf, type AuthenticationResponseSchema } from './response-json.ts';
import { readCredentialUse, readPasskeys, recordUse } from './store.ts';
import { userHandleOf } from './user-handle.ts';
import type * as v from 'valibot';

export async function authenticationOptions(deps: AuthDeps): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const rp = requireRelyingParty(deps.config);
  const challenge = issueChallenge(deps, { kind: 'authentication' });
  return generateAuthenticationOptions({ rpID: rp.id, challenge: isoBase64URL.toBuffer(challenge), timeout: CHALLENGE_TTL_MS, userVerification: 'required' });
}

export interface PasskeySignIn {
  userId: string;
  email: string | null;
  passkeyId: string;
  session: IssuedSession;
}

export async function signInWithPasskey(deps: AuthDeps, input: v.InferOutput<typeof AuthenticationResponseSchema>, device: string): Promise<PasskeySignIn> {
  const rp = requireRelyingParty(deps.config);
  const response = asAuthenticationResponse(input);
  const challenge = takeChallenge(deps, challengeOf(response.response.clientDataJSON), { kind: 'authentication' });
  const passkeyId = await sha256Hex(response.id);
  const use = readCredentialUse(deps, passkeyId);
  const passkey = use && readPasskeys(deps, use.userId).get(passkeyId);
  if (!use || !passkey) throw refused(deps, new Error('unknown or removed credential'));
  if (response.response.userHandle !== userHandleOf(use.userId)) throw refused(deps, new Error("user handle does not name the credential's owner"));
  let verified: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
      credential: { id: passkey.credential_id, publicKey: isoBase64URL.toBuffer(passkey.public_key), counter: use.counter, transports: passkey.transports as never },
    });
  } catch (error) {
    throw refused(deps, error);
  }
  if (!verified.verified || !verified.authenticationInfo.userVerified) throw refused(deps, undefined);
  const { newCounter, credentialBackedUp } = verified.authenticationInfo;
  const now = deps.platform.now();
  if (!recordUse(deps, passkeyId, use.revision, { user_id: use.userId, counter: newCounter, used_at: now }))
    throw refused(deps, new Error('a concurrent use of the same credential state'));
  const email = accountEmail(deps, use.userId);
  const session = await issueSession(deps, { userId: use.userId, email, aal: 'aal2', method: 'passkey', amr: [credentialBackedUp ? 'swk' : 'hwk', 'mfa'], device });
  return { userId: use.userId, email, passkeyId, session };
}

/** The account's email from the users read model (null for an account without one). */
function accountEmail(deps: AuthDeps, userId: string): string | null {
  const doc = deps.platform.projections.getDocument({ collection: AUTH_COLLECTIONS.users, id: userId });
  if (!doc) return null;
  const { email } = readAuthDocument<{ email?: unknown }>(AUTH_COLLECTIONS.users, doc.body);
  return typeof email === 'string' ? email : null;
}
