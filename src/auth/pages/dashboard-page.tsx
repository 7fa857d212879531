/** /dashboard: the signed-in account, its session, its linked providers, and sign-out. */
import type { ActiveSession } from '../application/index.ts';
import { Layout } from './layout.tsx';

export function DashboardPage(props: { session: ActiveSession; providers: string[] }) {
  const { session } = props;
  return (
    <Layout title="Dashboard">
      <h1>Dashboard</h1>
      <p id="signed-in-as">
        Signed in as <strong>{session.email ?? 'an account without email'}</strong>
      </p>
      <dl>
        <dt>User id</dt>
        <dd id="user-id">{session.userId}</dd>
        <dt>Signed in with</dt>
        <dd id="method">{session.method}</dd>
        <dt>Assurance level</dt>
        <dd>{session.aal}</dd>
        <dt>Session expires</dt>
        <dd id="expires-at">{new Date(session.expiresAt).toISOString()}</dd>
        <dt>Linked providers</dt>
        <dd id="providers">{props.providers.length > 0 ? props.providers.join(', ') : 'none'}</dd>
      </dl>
      <form method="post" action="/api/auth/logout" id="logout-form">
        <button type="submit">Sign out</button>
      </form>
    </Layout>
  );
}
