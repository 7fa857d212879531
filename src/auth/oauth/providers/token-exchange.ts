/**
 * The authorization-code grant at the token endpoint (RFC 6749 §4.1.3) with client_secret_post,
 * plus the PKCE verifier (RFC 7636 §4.5) when the provider uses PKCE.
 */
import * as v from 'valibot';
import type { ProviderSettings } from '../config.ts';
import { clientSecretFor } from './client-secret.ts';
import { fetchJson } from './http.ts';
import type { CallbackInput, ProviderDeps } from './types.ts';

const tokenResponseSchema = v.looseObject({
  access_token: v.pipe(v.string(), v.minLength(1)),
  token_type: v.optional(v.string()),
  expires_in: v.optional(v.number()),
  id_token: v.optional(v.pipe(v.string(), v.minLength(1))),
});

export type TokenResponse = v.InferOutput<typeof tokenResponseSchema>;

export async function exchangeCode(settings: ProviderSettings, input: CallbackInput, deps: ProviderDeps): Promise<TokenResponse> {
  const form = new URLSearchParams({
    grant_type: 'authorization_code',
    code: input.code,
    redirect_uri: settings.redirectUri,
    client_id: settings.clientId,
    client_secret: clientSecretFor(settings, deps.now(), deps.secretCache),
  });
  if (input.codeVerifier !== undefined) form.set('code_verifier', input.codeVerifier);
  return fetchJson(
    deps,
    'token_exchange_failed',
    settings.endpoints.tokenUrl,
    {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    },
    tokenResponseSchema,
  );
}
