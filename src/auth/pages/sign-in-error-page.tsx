/** The page a browser lands on when an OAuth sign-in fails: what happened, and the way back to /login. */
import { Layout } from './layout.tsx';

export function SignInErrorPage(props: { message: string; code: string; reason: string | undefined }) {
  return (
    <Layout title="Sign-in failed" page="error" session={{ state: 'signed-out' }}>
      <section class="card auth-narrow" aria-labelledby="error-title">
        <h1 id="error-title" class="card-title">
          Sign-in failed
        </h1>
        <p class="form-error" role="alert" data-code={props.code} data-reason={props.reason}>
          {props.message}
        </p>
        <p class="actions">
          <a id="back-to-login" class="button button-primary" href="/login">
            Back to sign in
          </a>
          <a class="button button-quiet" href="/">
            Go to the counter
          </a>
        </p>
      </section>
    </Layout>
  );
}
