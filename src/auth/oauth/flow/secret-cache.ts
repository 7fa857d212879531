/**
 * provider_c's signed client secret shared by every guest instance through the WIT key-value, so
 * one instance signs (tens of ms of pure-JS ES256) and the others reuse it. A cache failure only
 * costs a fresh signature, never a sign-in.
 */
import type { KeyValue, Logger } from '../../../platform/ports.ts';
import { authNamespaces } from '../../application/index.ts';
import type { SecretCache } from '../providers/types.ts';

export function keyValueSecretCache(keyValue: KeyValue, logger: Logger): SecretCache {
  const warn = (error: unknown) =>
    logger.log('warn', 'client-secret cache unavailable', { code: 'oauth_secret_cache_failed', error: error instanceof Error ? error.name : 'unknown' });
  return {
    get(key) {
      try {
        return keyValue.get(authNamespaces.oauthClientSecrets, key);
      } catch (error) {
        warn(error);
        return undefined;
      }
    },
    set(key, value, ttlMs) {
      try {
        keyValue.set(authNamespaces.oauthClientSecrets, key, value, BigInt(Math.floor(ttlMs)));
      } catch (error) {
        warn(error);
      }
    },
  };
}
