/** AUTH_PROVIDER_<X>_LABEL: the /login button's label, validated at start and escaped in the page. */
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { parseConfig } from '../../config.ts';
import { createMemoryPlatform } from '../../platform/testing/memory-platform.ts';
import { OAuthConfigError, parseOAuthConfig } from './config.ts';

const BASE = 'http://127.0.0.1:3000';
const providerA = (label?: string): Record<string, string> => ({
  AUTH_ENABLE_OAUTH: 'true',
  AUTH_PUBLIC_BASE_URL: BASE,
  AUTH_PROVIDER_A_ENABLED: 'true',
  AUTH_PROVIDER_A_CLIENT_ID: 'id',
  AUTH_PROVIDER_A_CLIENT_SECRET: 'secret',
  AUTH_PROVIDER_A_REDIRECT_URI: `${BASE}/api/auth/oauth/provider_a/callback`,
  ...(label === undefined ? {} : { AUTH_PROVIDER_A_LABEL: label }),
});

describe('AUTH_PROVIDER_<X>_LABEL', () => {
  it('defaults to "Provider X" and takes a configured label', () => {
    expect(parseOAuthConfig(providerA()).providers.provider_a.label).toBe('Provider A');
    expect(parseOAuthConfig(providerA('Acme ID')).providers.provider_a.label).toBe('Acme ID');
    expect(parseOAuthConfig(providerA('Ärzte-Konto 医療')).providers.provider_a.label).toBe('Ärzte-Konto 医療');
  });

  it('refuses a label too long, or with control or formatting characters, naming the variable only', () => {
    for (const bad of ['x'.repeat(41), 'Acme\u0000ID', 'Acme\u202eDI', 'Line\u2028break']) {
      const error = (() => {
        try {
          parseOAuthConfig(providerA(bad));
        } catch (caught) {
          return caught;
        }
        return undefined;
      })();
      expect(error).toBeInstanceOf(OAuthConfigError);
      expect((error as OAuthConfigError).variables).toEqual(['AUTH_PROVIDER_A_LABEL']);
      expect((error as Error).message).not.toContain(bad);
    }
  });

  it('labels the /login button, escaped as text', async () => {
    const env = Object.entries(providerA('Acme & <b>Co</b>'));
    const app = buildApp(createMemoryPlatform(), parseConfig(env));
    const page = await (await app.fetch(new Request(`${BASE}/login`))).text();
    expect(page).toContain('Continue with Acme &amp; &lt;b&gt;Co&lt;/b&gt;');
    expect(page).not.toContain('<b>Co</b>');
    const capabilities = await (await app.fetch(new Request(`${BASE}/api/auth/capabilities`))).text();
    expect(capabilities).toContain('Acme & <b>Co</b>');
  });
});
