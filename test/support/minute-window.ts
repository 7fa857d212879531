/**
 * The sign-in budgets count in fixed one-minute windows of the epoch (src/auth/application/rate-limit.ts).
 * A test whose attempts must fall in one window waits, when less than `needMs` of the current
 * window is left, for the next one to begin.
 */
export async function inOneMinuteWindow(needMs: number): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < needMs) await new Promise((resolve) => setTimeout(resolve, left + 250));
}
