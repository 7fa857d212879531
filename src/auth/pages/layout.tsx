/**
 * The frame of the auth pages: the counter page's shell (src/web/shell.tsx: stylesheet, icon, top bar
 * with the app name and the way back to the counter) with the session as the server knows it in the
 * header, and the auth pages' client script (an enhancement: every core action is a form post).
 */
import type { Child } from 'hono/jsx';
import { AccountMenu, Document, Topbar, type HeaderSession } from '../../web/shell.tsx';
import { sharedPageAssets } from '../../web/page-assets.ts';

export function Layout(props: { title: string; session: HeaderSession; page: string; children: Child }) {
  const assets = sharedPageAssets();
  return (
    <Document title={`${props.title} · Counter`} script={assets.accountScript} assets={assets}>
      <Topbar icon={assets.icon}>
        <AccountMenu session={props.session} />
      </Topbar>
      <div class={`auth-page auth-${props.page}`}>{props.children}</div>
      <footer class="footer">
        <a href="/">Back to the counter</a>
      </footer>
    </Document>
  );
}
