/**
 * A wait in words a person can act on: "in 2 minutes". Rounded up, so the person never comes back
 * too early. Used by every page that passes on a rate limit (the auth forms, the browser's error page).
 */
export function waitWords(seconds: number): string {
  if (seconds < 60) return seconds === 1 ? 'in 1 second' : `in ${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return minutes === 1 ? 'in 1 minute' : `in ${minutes} minutes`;
  const hours = Math.ceil(minutes / 60);
  return hours === 1 ? 'in 1 hour' : `in ${hours} hours`;
}

/** "Try again in 2 minutes.", from the moment a limit lifts (Unix seconds) and the time the page is drawn. */
export function tryAgainWords(retryAt: number | undefined, nowMs: number): string {
  if (retryAt === undefined) return 'Try again in a few minutes.';
  const seconds = Math.ceil(retryAt - nowMs / 1000);
  return seconds <= 0 ? 'You can try again now.' : `Try again ${waitWords(seconds)}.`;
}
