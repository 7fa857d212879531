/** Reads `.env` for local runs (the host and `npm run reset`); variables already set in the environment win. */
import { existsSync, readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';

export function loadDotEnv(path = '.env'): void {
  if (!existsSync(path)) return;
  const parsed = parseEnv(readFileSync(path, 'utf8'));
  for (const [key, value] of Object.entries(parsed)) if (process.env[key] === undefined) process.env[key] = value;
}
