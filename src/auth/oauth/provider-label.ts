/**
 * The sign-in button's label of a provider (`AUTH_PROVIDER_<X>_LABEL`, "Continue with <label>"):
 * plain text of 1-40 characters, without control, format (e.g. bidirectional overrides) or line
 * separator characters. Pages escape it like any text (hono/jsx).
 */
import type { EnvReader } from './config-values.ts';
import { envPrefix, type ProviderId } from './provider-ids.ts';

const MAX_LABEL_LENGTH = 40;
const DEFAULT_LABELS: Record<ProviderId, string> = { provider_a: 'Provider A', provider_b: 'Provider B', provider_c: 'Provider C' };

/**
 * Control characters, the common format characters (soft hyphen, zero-width and bidirectional
 * marks, embeddings, overrides and isolates, BOM, interlinear annotations) and the line and
 * paragraph separators. Code point ranges, not `\p{…}`: the component's engine has no Unicode
 * property escapes.
 */
const INVISIBLE: ReadonlyArray<readonly [number, number]> = [
  [0x00, 0x1f],
  [0x7f, 0x9f],
  [0xad, 0xad],
  [0x061c, 0x061c],
  [0x180e, 0x180e],
  [0x200b, 0x200f],
  [0x2028, 0x202e],
  [0x2060, 0x206f],
  [0xfeff, 0xfeff],
  [0xfff9, 0xfffb],
];

function isInvisible(character: string): boolean {
  const code = character.codePointAt(0) ?? 0;
  return INVISIBLE.some(([from, to]) => code >= from && code <= to);
}

export function readProviderLabel(env: EnvReader, id: ProviderId): string {
  const name = `${envPrefix(id)}_LABEL`;
  const label = env.raw(name);
  if (label === undefined) return DEFAULT_LABELS[id];
  if ([...label].length > MAX_LABEL_LENGTH || [...label].some(isInvisible)) {
    env.problem(name, `must be plain text of at most ${MAX_LABEL_LENGTH} characters (no control or formatting characters)`);
    return DEFAULT_LABELS[id];
  }
  return label;
}

/**
 * The words for a provider the service may no longer offer (an identity linked before the operator
 * removed it): its default label, never its id.
 */
export function defaultProviderLabel(id: string): string {
  return Object.hasOwn(DEFAULT_LABELS, id) ? DEFAULT_LABELS[id as ProviderId] : 'A sign-in provider';
}
