/**
 * The accounts the administration suites disable and enable, on the Node host and under
 * `wasmtime serve` alike: a verified password account holding a software passkey ("Ada key"),
 * signed in with the password and with the passkey, and a provider account signed in once through
 * the local OpenID provider (./oauth-provider/provider-sign-in.ts).
 */
import { expect } from 'vitest';
import { sessionIdFrom, sessionOf } from '../auth/support.ts';
import { providerSignIn } from './oauth-provider/provider-sign-in.ts';
import { addSoftwarePasskey, passkeySignIn, verifiedAccount, type AccountTarget } from './passkey-account.ts';

export async function accountsToDisable(target: AccountTarget) {
  const ada = await verifiedAccount(target);
  const { key } = await addSoftwarePasskey(target, ada.sessionId, 'Ada key');
  const passkeySession = sessionIdFrom(await passkeySignIn(target, key))!;
  expect(await sessionOf(target.url, passkeySession)).toMatchObject({ authenticated: true, method: 'passkey' });
  const providerFirst = await providerSignIn(target.url);
  expect(providerFirst.status).toBe(302);
  const providerSession = sessionIdFrom(providerFirst)!;
  const providerUser = (await sessionOf(target.url, providerSession))['user_id'] as string;
  return { ada, key, passkeySession, providerSession, providerUser };
}
