/**
 * A verified password account holding software passkeys (./software-passkey.ts), made over real
 * HTTP as a same-origin page asks: register and sign in, follow the mailed verification link, add
 * each passkey with the password asked again; and a passkey sign-in. Shared by the passkey,
 * sign-in-method, administration, account deletion and erasure suites on the Node host and under
 * `wasmtime serve`.
 */
import { expect } from 'vitest';
import { PASSWORD, register } from '../auth/support.ts';
import type { MailingServer } from './mailing-server.ts';
import { jsonAnswer, postSameOrigin } from './same-origin-call.ts';
import { linkIn } from './smtp-sink.ts';
import { SoftwarePasskey, type CeremonyOptions } from './software-passkey.ts';

export type AccountTarget = Pick<MailingServer, 'url' | 'origin' | 'mailTo' | 'logs'>;

/** The options a passkey is created from (WebAuthn `PublicKeyCredentialCreationOptions`, the parts the software authenticator reads). */
export interface CreationOptions {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
}

const VERIFY_SUBJECT = 'Confirm your email address';

/** A password account (at `email`, or a fresh address), signed in, whose address is verified with the mailed link (200). */
export async function verifiedAccount(target: AccountTarget, email?: string): ReturnType<typeof register> {
  const account = await register(target.url, email);
  const link = linkIn(await target.mailTo(account.email, VERIFY_SUBJECT), '/verify-email');
  await jsonAnswer(await postSameOrigin(target, '/api/auth/email/verify', { token: new URL(link).searchParams.get('token') }));
  return account;
}

/**
 * Adds a new software passkey (named `name`, or the server's default name) to the signed-in
 * account, the password given: options 200, verification 201 (a failure names the refusal the
 * server logged: the answer says nothing of it).
 */
export async function addSoftwarePasskey(target: AccountTarget, sessionId: string, name?: string, password = PASSWORD): Promise<{ key: SoftwarePasskey; id: string }> {
  const key = new SoftwarePasskey();
  const options = await jsonAnswer<CreationOptions>(await postSameOrigin(target, '/api/auth/passkeys/registration/options', { password }, sessionId));
  const response = key.register(options, { origin: target.origin });
  const added = await postSameOrigin(target, '/api/auth/passkeys/registration/verify', name === undefined ? { response } : { response, name }, sessionId);
  const refusals = target.logs().filter((line) => line['code'] === 'auth_passkey_refused' || line['level'] === 'error');
  expect(added.status, `${await added.clone().text()} ${JSON.stringify(refusals)}`).toBe(201);
  return { key, id: ((await added.json()) as { id: string }).id };
}

/** Signs in with `key` over fresh options (200): the verification's answer, a session cookie or the refusal. `ceremony` changes what the assertion claims. */
export async function passkeySignIn(target: AccountTarget, key: SoftwarePasskey, ceremony: Partial<CeremonyOptions> & { counter?: number } = {}): Promise<Response> {
  const options = await jsonAnswer<{ challenge: string; rpId?: string }>(await postSameOrigin(target, '/api/auth/passkeys/authentication/options', {}));
  return postSameOrigin(target, '/api/auth/passkeys/authentication/verify', { response: key.assert(options, { origin: target.origin, ...ceremony }) });
}
