/**
 * A password form post refused for what it is or how often it comes (`validation`: a field
 * missing, an address or password the service does not take; `rate_limited`) is answered with
 * the /login page itself at the refusal's status (400, 429 with Retry-After), the error beside
 * its field and the typed email kept: the page a redirect back would show, without a 3xx that
 * reads as success (RFC 9110 §15.5.1, RFC 6585 §4).
 */
import { RateLimitedError, type AppError } from '../../errors.ts';
import { PasswordRejected } from '../domain/password-policy.ts';
import { statusForCode } from '../../http/errors.ts';
import { safeNextPath, type AuthDeps } from '../application/index.ts';
import { PAGE_HEADERS } from '../../web/security-headers.ts';
import { LoginPage } from './login-page.tsx';

export function refusedFormPage(deps: AuthDeps, failure: AppError, form: 'login' | 'register', email: string | undefined, next: string | undefined): Response {
  const page = (
    <LoginPage
      next={safeNextPath(next)}
      error={failure.code}
      reason={failure instanceof PasswordRejected ? failure.problem : undefined}
      form={form}
      notice={undefined}
      email={email}
      minLength={deps.config.passwordMinLength}
      providers={deps.offeredProviders?.() ?? []}
      signedInAs={undefined}
    />
  );
  const headers: Record<string, string> = { ...PAGE_HEADERS, 'Content-Type': 'text/html; charset=UTF-8' };
  if (failure instanceof RateLimitedError) headers['Retry-After'] = String(failure.retryAfterSeconds);
  return new Response(`<!doctype html>${page.toString()}`, { status: statusForCode(failure.code), headers });
}
