/**
 * Adding a passkey to the signed-in account (WebAuthn Level 3 §7.1 "Registering a New
 * Credential"): options with a fresh challenge bound to the user, a discoverable credential
 * (`residentKey: required`) and user verification required; then @simplewebauthn/server checks the
 * response (§7.1: type, challenge, origin, RP ID hash, UP and UV flags, algorithm,
 * attestation statement) and the credential is claimed for this account only.
 */
import { generateRegistrationOptions, verifyRegistrationResponse, type PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import { AppError } from '../../errors.ts';
import type { Reauthentication } from '../application/account-deletion.ts';
import type { ActiveSession } from '../application/sessions.ts';
import { mailPasskeyAdded } from './added-mail.ts';
import { requireMayAddPasskey, requireVerifiedAddress } from './adding-rules.ts';
import type { AuthDeps } from '../application/deps.ts';
import { authEvent } from '../application/event-codec.ts';
import { sha256Hex } from '../application/secrets.ts';
import { CHALLENGE_TTL_MS, issueChallenge, takeChallenge } from './challenges.ts';
import { refused } from './refusal.ts';
import type { PasskeyRegistered } from './events.ts';
import { cleanPasskeyName, MAX_PASSKEYS_PER_USER } from './passkey-list.ts';
import { requireRelyingParty } from './relying-party.ts';
import { asRegistrationResponse, challengeOf, type RegistrationResponseSchema } from './response-json.ts';
import { appendToList, claimCredential, readPasskeys } from './store.ts';
import { userHandleOf } from './user-handle.ts';
import type * as v from 'valibot';

/**
 * Creation options with a challenge, once the adding rules hold (./adding-rules.ts: a verified
 * address, re-authentication); 403 `forbidden` otherwise.
 */
export async function registrationOptions(deps: AuthDeps, session: ActiveSession, reauth: Reauthentication): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const rp = requireRelyingParty(deps.config);
  await requireMayAddPasskey(deps, session, reauth);
  const existing = [...readPasskeys(deps, session.userId).values()];
  if (existing.length >= MAX_PASSKEYS_PER_USER) throw new AppError('domain', `an account keeps at most ${MAX_PASSKEYS_PER_USER} passkeys`);
  const challenge = issueChallenge(deps, { kind: 'registration', userId: session.userId });
  const label = session.email ?? `account ${session.userId.slice(0, 8)}`;
  return generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: label,
    userDisplayName: label,
    userID: isoBase64URL.toBuffer(userHandleOf(session.userId)),
    challenge: isoBase64URL.toBuffer(challenge),
    timeout: CHALLENGE_TTL_MS,
    attestationType: 'none',
    // §5.4 excludeCredentials: the browser refuses an authenticator that already holds one of these for this account.
    excludeCredentials: existing.map((p) => ({ id: p.credential_id, transports: p.transports })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
}

export interface NewPasskey {
  response: v.InferOutput<typeof RegistrationResponseSchema>;
  name: string | undefined;
  /** a default name when none is given, e.g. the device hint */
  fallbackName: string;
}

/** Verifies and stores the passkey, then mails the address (./added-mail.ts). */
export async function registerPasskey(deps: AuthDeps, session: ActiveSession, input: NewPasskey): Promise<PasskeyRegistered> {
  const rp = requireRelyingParty(deps.config);
  await requireVerifiedAddress(deps, session);
  const response = asRegistrationResponse(input.response);
  const challenge = takeChallenge(deps, challengeOf(response.response.clientDataJSON), { kind: 'registration', userId: session.userId });
  let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verified = await verifyRegistrationResponse({ response, expectedChallenge: challenge, expectedOrigin: rp.origin, expectedRPID: rp.id, requireUserVerification: true });
  } catch (error) {
    throw refused(deps, error);
  }
  if (!verified.verified) throw refused(deps, undefined);
  const { credential, credentialBackedUp, credentialDeviceType } = verified.registrationInfo;
  if (readPasskeys(deps, session.userId).size >= MAX_PASSKEYS_PER_USER) throw new AppError('domain', `an account keeps at most ${MAX_PASSKEYS_PER_USER} passkeys`);
  const passkeyId = await sha256Hex(credential.id);
  if (!claimCredential(deps, passkeyId, { user_id: session.userId, counter: credential.counter })) throw new AppError('conflict', 'this passkey is already registered');
  const registered: PasskeyRegistered = {
    user_id: session.userId,
    passkey_id: passkeyId,
    credential_id: credential.id,
    public_key: isoBase64URL.fromBuffer(credential.publicKey),
    counter: credential.counter,
    transports: credential.transports ?? [],
    name: cleanPasskeyName(input.name ?? '') ?? cleanPasskeyName(input.fallbackName) ?? 'Passkey',
    backed_up: credentialBackedUp,
    device_type: credentialDeviceType,
    created_at: deps.platform.now(),
  };
  appendToList(deps, session.userId, authEvent('auth_passkey_registered', registered));
  try {
    await mailPasskeyAdded(deps, session, registered);
  } catch (error) {
    throw AppError.fromStore(error);
  }
  return registered;
}
