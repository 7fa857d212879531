/**
 * /login: the password sign-in and registration forms (plain form posts to the JSON routes,
 * which answer forms with redirects) and one button per offered OAuth provider.
 */
import type { OfferedProvider } from '../application/index.ts';
import { Layout } from './layout.tsx';

/** Public wording of the error codes a form post can come back with. */
const ERROR_TEXT: Record<string, string> = {
  invalid_credentials: 'Invalid email or password.',
  rate_limited: 'Too many failed attempts. Try again later.',
  conflict: 'An account with this email already exists.',
  validation: 'Check the email address and the password length.',
  forbidden: 'The request was refused.',
  store: 'The service is unavailable. Try again later.',
};

export interface LoginPageProps {
  next: string;
  error: string | undefined;
  form: string | undefined;
  minLength: number;
  providers: OfferedProvider[];
  signedInAs: string | null | undefined;
}

export function LoginPage(props: LoginPageProps) {
  const message = props.error ? (ERROR_TEXT[props.error] ?? 'Sign-in failed. Try again.') : undefined;
  return (
    <Layout title="Sign in">
      <h1>Sign in</h1>
      {props.signedInAs !== undefined && (
        <p>
          You are signed in{props.signedInAs ? ` as ${props.signedInAs}` : ''}. <a href="/dashboard">Go to the dashboard</a>.
        </p>
      )}
      {message && (
        <p class="error" role="alert" data-error={props.error} data-form={props.form}>
          {message}
        </p>
      )}
      <form method="post" action="/api/auth/password/login" id="login-form">
        <h2>With your password</h2>
        <input type="hidden" name="next" value={props.next} />
        <label>
          Email <input type="email" name="email" autocomplete="username" required />
        </label>
        <label>
          Password <input type="password" name="password" autocomplete="current-password" required />
        </label>
        <button type="submit">Sign in</button>
      </form>
      {props.providers.length > 0 && (
        <section id="providers">
          <h2>With a provider</h2>
          {props.providers.map((p) => (
            <p>
              <a class="button" data-provider={p.id} href={`${p.startPath}?next=${encodeURIComponent(props.next)}`}>
                Continue with {p.label}
              </a>
            </p>
          ))}
        </section>
      )}
      <form method="post" action="/api/auth/password/register" id="register-form">
        <h2>Create an account</h2>
        <input type="hidden" name="next" value={props.next} />
        <label>
          Email <input type="email" name="email" autocomplete="username" required />
        </label>
        <label>
          Password (at least {props.minLength} characters){' '}
          <input type="password" name="password" autocomplete="new-password" minlength={props.minLength} required />
        </label>
        <button type="submit">Create account</button>
      </form>
    </Layout>
  );
}
