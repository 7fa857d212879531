/**
 * A password form post the service refuses as invalid (`validation`: a field missing, an address
 * or password it does not take) is answered 400 with the /login page itself, the error beside its
 * field and the typed email kept: the same page a redirect back would show, without claiming
 * success with a 3xx (RFC 9110 §15.5.1).
 */
import { safeNextPath, type AuthDeps } from '../application/index.ts';
import { PAGE_HEADERS } from '../../ui/index.ts';
import { LoginPage } from './login-page.tsx';

export function invalidFormPage(deps: AuthDeps, form: 'login' | 'register', email: string | undefined, next: string | undefined): Response {
  const page = (
    <LoginPage
      next={safeNextPath(next)}
      error="validation"
      form={form}
      notice={undefined}
      email={email}
      minLength={deps.config.passwordMinLength}
      providers={deps.offeredProviders?.() ?? []}
      signedInAs={undefined}
    />
  );
  return new Response(`<!doctype html>${page.toString()}`, { status: 400, headers: { ...PAGE_HEADERS, 'Content-Type': 'text/html; charset=UTF-8' } });
}
