/** The page a browser lands on when an OAuth sign-in fails: what happened, and the way back to /login. */
import { Layout } from './layout.tsx';

export function SignInErrorPage(props: { message: string; code: string; reason: string | undefined }) {
  return (
    <Layout title="Sign-in failed">
      <h1>Sign-in failed</h1>
      <p class="error" role="alert" data-code={props.code} data-reason={props.reason}>
        {props.message}
      </p>
      <p>
        <a id="back-to-login" href="/login">
          Back to sign in
        </a>
      </p>
    </Layout>
  );
}
