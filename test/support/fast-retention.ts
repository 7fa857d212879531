/**
 * A Node host set up to show within a minute whether a run of sign-ins leaves rows behind:
 * sessions that end after 2 s and go a second later, a maintenance pass every second, and
 * sign-in and sign-up limits a run of a few hundred never meets. Shared by the retention suites
 * (test/auth/sign-in-traces.e2e.test.ts, test/passkeys/use-history.e2e.test.ts).
 */

/** The host's flags besides its backend's. */
export const FAST_RETENTION_ARGS = ['--maintenance-interval', '1'];

export const FAST_RETENTION_ENV: Record<string, string> = {
  AUTH_SESSION_TTL_SECONDS: '2',
  AUTH_SESSION_RETENTION_SECONDS: '1',
  AUTH_CLIENT_MAX_ATTEMPTS_PER_MINUTE: '100000',
  AUTH_GLOBAL_MAX_SIGNUPS_PER_MINUTE: '100000',
};
