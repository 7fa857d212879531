/** `.env.example` lists the real endpoints and scopes the code uses as defaults, and passes the configuration parser. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parseOAuthConfig } from '../../src/auth/oauth/config.ts';
import { PROVIDER_DEFAULTS } from '../../src/auth/oauth/provider-defaults.ts';
import { envPrefix, PROVIDER_IDS } from '../../src/auth/oauth/provider-ids.ts';
import { ROOT } from '../../harness/host-process.ts';

const example = parseEnv(readFileSync(join(ROOT, '.env.example'), 'utf8')) as Record<string, string>;
const SUFFIX = { scopes: 'SCOPES', authorizationUrl: 'AUTHORIZATION_URL', tokenUrl: 'TOKEN_URL', issuer: 'ISSUER', jwksUrl: 'JWKS_URL', userInfoUrl: 'USERINFO_URL' } as const;

describe('.env.example', () => {
  it.each(PROVIDER_IDS)('%s: every default in the code is written out, with the same value', (id) => {
    for (const [key, value] of Object.entries(PROVIDER_DEFAULTS[id])) {
      expect(example[`${envPrefix(id)}_${SUFFIX[key as keyof typeof SUFFIX]}`]).toBe(value);
    }
  });

  it('is accepted by the configuration parser as it stands (OAuth off)', () => {
    expect(parseOAuthConfig(example).offered).toEqual([]);
  });
});
