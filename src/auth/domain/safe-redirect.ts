/**
 * Where to send the browser after sign-in: only a same-site relative path. Anything that a
 * browser could read as another origin (`//host`, `/\host`, a scheme, control characters,
 * percent-encoded variants of those) falls back to the default.
 */
export const DEFAULT_AFTER_SIGN_IN = '/dashboard';

export function safeNextPath(next: string | null | undefined, fallback = DEFAULT_AFTER_SIGN_IN): string {
  if (!next || next.length > 2048) return fallback;
  let decoded = next;
  try {
    // Decode repeatedly so `%2F%2F` or `%252F` cannot smuggle a second slash past the checks.
    for (let i = 0; i < 3 && /%[0-9a-f]{2}/i.test(decoded); i++) decoded = decodeURIComponent(decoded);
  } catch {
    return fallback;
  }
  for (const candidate of [next, decoded]) {
    if (!candidate.startsWith('/') || candidate.startsWith('//') || candidate.includes('\\')) return fallback;
    if (/[\u0000-\u001f\u007f]/.test(candidate)) return fallback;
  }
  // Resolve against a throwaway origin: the result must stay on it.
  const resolved = new URL(next, 'http://same.invalid');
  if (resolved.origin !== 'http://same.invalid') return fallback;
  return `${resolved.pathname}${resolved.search}${resolved.hash}`;
}
