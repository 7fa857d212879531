/**
 * A short, human hint of the device behind a session ("Chrome on Linux"), derived from the
 * User-Agent when the session is issued, so a user can tell their sessions apart on a session
 * list without the service storing the full User-Agent. Browser and system names as data tables;
 * order matters (Edge and Chrome both say "Chrome", Chrome and Safari both say "Safari").
 */
const BROWSERS: ReadonlyArray<[RegExp, string]> = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\bOPR\//, 'Opera'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  // Headless Chromium says "HeadlessChrome/": still Chrome, not an unknown browser on Linux.
  [/\b(Headless)?Chrom(e|ium)\/|\bCriOS\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
  [/^curl\//, 'curl'],
  [/^grpc/, 'gRPC client'],
];

const SYSTEMS: ReadonlyArray<[RegExp, string]> = [
  [/\bAndroid\b/, 'Android'],
  [/\b(iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bLinux\b/, 'Linux'],
];

/** e.g. "Firefox on Windows", "curl", "Unknown device"; at most ~30 characters, never the raw header. */
export function deviceHint(userAgent: string | null | undefined): string {
  const ua = (userAgent ?? '').slice(0, 512);
  const browser = BROWSERS.find(([pattern]) => pattern.test(ua))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(ua))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? 'Unknown device';
}
