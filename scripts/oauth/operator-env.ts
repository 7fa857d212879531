/**
 * The environment an operator tool sees: the real environment, then `.env` in the working
 * directory for variables the environment does not set (the same precedence as the host).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { PROVIDER_IDS, type ProviderId } from '../../src/auth/oauth/provider-ids.ts';

export function operatorEnv(cwd = process.cwd(), env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const merged: Record<string, string> = {};
  const file = join(cwd, '.env');
  if (existsSync(file)) Object.assign(merged, parseEnv(readFileSync(file, 'utf8')));
  for (const [key, value] of Object.entries(env)) if (value !== undefined) merged[key] = value;
  return merged;
}

/** `OAUTH_PROVIDERS` (comma or space separated; default all three), or an error naming the bad entry. */
export function selectedProviders(env: Record<string, string>): ProviderId[] | { error: string } {
  const raw = env.OAUTH_PROVIDERS?.trim();
  if (!raw) return [...PROVIDER_IDS];
  const names = raw.split(/[\s,]+/).filter(Boolean);
  const unknown = names.filter((n) => !(PROVIDER_IDS as readonly string[]).includes(n));
  if (unknown.length > 0) return { error: `OAUTH_PROVIDERS names an unknown provider (allowed: ${PROVIDER_IDS.join(', ')})` };
  return PROVIDER_IDS.filter((id) => names.includes(id));
}
