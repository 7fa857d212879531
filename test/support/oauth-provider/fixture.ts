/**
 * A local provider registered for a service at `publicBaseUrl`, and the service's complete OAuth
 * environment for it (credentials, redirect URIs, endpoint overrides). `secrets` lists every
 * secret value, so tests can check that no output ever contains one.
 */
import { exportJWK, exportPKCS8, generateKeyPair } from 'jose';
import { startOAuthProvider, type OAuthTestProvider, type TestUser } from './server.ts';

export interface OAuthFixture {
  provider: OAuthTestProvider;
  env: Record<string, string>;
  secrets: string[];
}

export async function startOAuthFixture(publicBaseUrl: string, options: { user?: Partial<TestUser> } = {}): Promise<OAuthFixture> {
  const redirect = (id: string) => `${publicBaseUrl}/api/auth/oauth/${id}/callback`;
  const cKey = await generateKeyPair('ES256', { extractable: true });
  const cPem = await exportPKCS8(cKey.privateKey);
  const secrets = { a: `a-secret-${crypto.randomUUID()}`, b: `b-secret-${crypto.randomUUID()}` };
  const provider = await startOAuthProvider({
    user: options.user ?? {},
    clients: {
      provider_a: { clientId: 'client-a', redirectUri: redirect('provider_a'), check: { kind: 'secret', secret: secrets.a } },
      provider_b: { clientId: 'client-b', redirectUri: redirect('provider_b'), check: { kind: 'secret', secret: secrets.b } },
      provider_c: {
        clientId: 'com.example.client-c',
        redirectUri: redirect('provider_c'),
        check: { kind: 'signed_jwt', teamId: 'TEAMC12345', keyId: 'KEYC12345', publicJwk: await exportJWK(cKey.publicKey) },
      },
    },
  });
  const env = {
    AUTH_ENABLE_OAUTH: 'true',
    AUTH_PUBLIC_BASE_URL: publicBaseUrl,
    AUTH_COOKIE_SECURE: 'false',
    AUTH_PROVIDER_A_ENABLED: 'true',
    AUTH_PROVIDER_A_CLIENT_ID: 'client-a',
    AUTH_PROVIDER_A_CLIENT_SECRET: secrets.a,
    AUTH_PROVIDER_A_REDIRECT_URI: redirect('provider_a'),
    AUTH_PROVIDER_B_ENABLED: 'true',
    AUTH_PROVIDER_B_CLIENT_ID: 'client-b',
    AUTH_PROVIDER_B_CLIENT_SECRET: secrets.b,
    AUTH_PROVIDER_B_REDIRECT_URI: redirect('provider_b'),
    AUTH_PROVIDER_C_ENABLED: 'true',
    AUTH_PROVIDER_C_CLIENT_ID: 'com.example.client-c',
    AUTH_PROVIDER_C_REDIRECT_URI: redirect('provider_c'),
    AUTH_PROVIDER_C_TEAM_ID: 'TEAMC12345',
    AUTH_PROVIDER_C_KEY_ID: 'KEYC12345',
    // escaped PEM: one line, as an environment variable holds it
    AUTH_PROVIDER_C_PRIVATE_KEY: cPem.trim().replace(/\n/g, '\\n'),
    ...provider.endpointEnv(),
  };
  const pemBody = cPem.replace(/-----[A-Z ]+-----|\s/g, '');
  return { provider, env, secrets: [secrets.a, secrets.b, pemBody, ...pemBody.match(/.{1,64}/g)!] };
}
