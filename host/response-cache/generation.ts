/**
 * The generation a cached body belongs to: the component's files and the guest settings that
 * shape its answers. It seeds the ETags the cache makes (cache.ts), so a new build or another
 * configuration never shares an entity tag with a different body (RFC 9110 §8.8.3: a strong
 * tag changes whenever the representation does). Secrets stay out: only the host's own
 * non-secret settings are hashed, never the AUTH_ variables passed to the guest.
 */
import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export function cacheGeneration(componentDir: string, settings: ReadonlyArray<readonly [string, string]>): string {
  const hash = createHash('sha256');
  for (const name of readdirSync(componentDir).sort()) {
    const stat = statSync(join(componentDir, name));
    hash.update(`${name}\0${stat.size}\0${stat.mtimeMs}\n`);
  }
  for (const [key, value] of settings) if (!key.startsWith('AUTH_')) hash.update(`${key}=${value}\n`);
  return hash.digest('base64url').slice(0, 16);
}
