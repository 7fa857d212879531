/**
 * Where to send the browser after sign-in (password forms and OAuth alike): only a same-site
 * relative path. Anything a browser could read as another origin (`//host`, `/\\host`, a scheme,
 * backslashes, control or whitespace characters, percent-encoded variants of those) falls back
 * to the default (open-redirect defence). The checks run on the input and again on the final,
 * normalised value, which must come out unchanged: dot segments (RFC 3986 §5.2.4) can turn a
 * harmless-looking path into `//host` (`/.//host`, `/%2e//host`, `/a/..//host`).
 */
export const DEFAULT_AFTER_SIGN_IN = '/dashboard';
const MAX_LENGTH = 512;

/** `next` (normalised) when it is a safe same-site path (`/x`, `/x?y#z`), else `fallback`. */
export function safeNextPath(next: string | null | undefined, fallback = DEFAULT_AFTER_SIGN_IN): string {
  if (typeof next !== 'string') return fallback;
  const once = normalisedSameSitePath(next);
  // The value the browser will be sent to must pass every check itself, and be a fixed point.
  if (once === undefined || normalisedSameSitePath(once) !== once) return fallback;
  return once;
}

/** The normalised path when `next` passes the checks, else undefined. */
function normalisedSameSitePath(next: string): string | undefined {
  const fallback = undefined;
  if (next === '' || next.length > MAX_LENGTH) return fallback;
  // One leading slash, then not a second slash or backslash ("//host", "/\host" are protocol-relative).
  if (!next.startsWith('/') || next[1] === '/' || next[1] === '\\') return fallback;
  // Backslashes (browsers read them as slashes) and control or whitespace characters anywhere.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point.
  if (/[\\\u0000-\u0020\u007f-\u009f\u2028\u2029]/.test(next)) return fallback;
  // Encoded tricks: a decoded form must not start a second slash, hold a backslash, control char or scheme.
  let decoded = next;
  for (let i = 0; i < 3; i++) {
    let once: string;
    try {
      once = decodeURIComponent(decoded);
    } catch {
      return fallback;
    }
    if (once === decoded) break;
    decoded = once;
    // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point.
    if (!decoded.startsWith('/') || decoded[1] === '/' || /[\\\u0000-\u001f\u007f]/.test(decoded)) return fallback;
  }
  // Resolving against a dummy origin must keep that origin (catches anything the rules above missed).
  const resolved = new URL(next, 'https://same-site.invalid');
  if (resolved.origin !== 'https://same-site.invalid') return fallback;
  return `${resolved.pathname}${resolved.search}${resolved.hash}`;
}
