/**
 * The sign-in button's label of a provider (`AUTH_PROVIDER_<X>_LABEL`, "Continue with <label>"):
 * plain text of 1-40 characters, without control, format (e.g. bidirectional overrides) or line
 * separator characters. Pages escape it like any text (hono/jsx).
 */
import type { EnvReader } from './config-values.ts';
import { envPrefix, type ProviderId } from './provider-ids.ts';

export const MAX_LABEL_LENGTH = 40;
const DEFAULT_LABELS: Record<ProviderId, string> = { provider_a: 'Provider A', provider_b: 'Provider B', provider_c: 'Provider C' };

export function readProviderLabel(env: EnvReader, id: ProviderId): string {
  const name = `${envPrefix(id)}_LABEL`;
  const label = env.raw(name);
  if (label === undefined) return DEFAULT_LABELS[id];
  if ([...label].length > MAX_LABEL_LENGTH || /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(label)) {
    env.problem(name, `must be plain text of at most ${MAX_LABEL_LENGTH} characters (no control or formatting characters)`);
    return DEFAULT_LABELS[id];
  }
  return label;
}
