/**
 * The page a browser lands on when an OAuth sign-in fails: what happened, and the way back to
 * /login; when linking a provider from the account page fails, the way back to the account.
 */
import { Layout } from './layout.tsx';

export function SignInErrorPage(props: { message: string; code: string; reason: string | undefined; linking?: boolean }) {
  const title = props.linking ? 'Linking failed' : 'Sign-in failed';
  return (
    <Layout title={title} page="error" session={{ state: 'signed-out' }}>
      <section class="card auth-narrow" aria-labelledby="error-title">
        <h1 id="error-title" class="card-title">
          {title}
        </h1>
        <p class="form-error" role="alert" data-code={props.code} data-reason={props.reason}>
          {props.message}
        </p>
        <p class="actions">
          {props.linking ? (
            <a id="back-to-account" class="button button-primary" href="/dashboard">
              Back to your account
            </a>
          ) : (
            <a id="back-to-login" class="button button-primary" href="/login">
              Back to sign in
            </a>
          )}
          <a class="button button-quiet" href="/">
            Go to the counter
          </a>
        </p>
      </section>
    </Layout>
  );
}
