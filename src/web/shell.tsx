/**
 * The frame every page shares (counter, /login, /dashboard, the sign-in error page), so they are one
 * product: the same stylesheet and icon from /pkg, the same top bar (app name linking back to the
 * counter, then the page's own items), the same palettes and phone layout (static/styles.css).
 */
import type { Child, FC } from 'hono/jsx';

export interface PageAssets {
  /** the counter page's client */
  script: string;
  /** the auth pages' client (session menu, password hint, sessions list) */
  accountScript: string;
  stylesheet: string;
  icon: string;
}

/** The whole document: head from the shared assets, `<main class="shell">` around the page. */
export const Document: FC<{ title: string; description?: string; script: string; assets: PageAssets; children: Child }> = (props) => (
  <html lang="en">
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <meta name="color-scheme" content="light dark" />
      {props.description && <meta name="description" content={props.description} />}
      <title>{props.title}</title>
      <link rel="icon" type="image/svg+xml" href={props.assets.icon} />
      <link rel="stylesheet" href={props.assets.stylesheet} />
      <script type="module" src={props.script}></script>
    </head>
    <body>
      <main class="shell">{props.children}</main>
    </body>
  </html>
);

/** The top bar: the app name (a link back to the counter) and, at the right, the page's items. */
export const Topbar: FC<{ icon: string; children?: Child }> = (props) => (
  <header class="topbar">
    <a class="brand" href="/">
      <img src={props.icon} alt="" width="28" height="28" />
      <span>Counter</span>
    </a>
    <div class="topbar-end">{props.children}</div>
  </header>
);

/** Who is signed in, as the header shows it; `unknown` until the counter page's client asks. */
export type HeaderSession = { state: 'unknown' } | { state: 'signed-out' } | { state: 'signed-in'; email: string | null };

/**
 * "Sign in" when signed out; the email with a menu (account, sign out) when signed in. A
 * `<details>` menu opens by keyboard and without script; sign out is a form post.
 */
export const AccountMenu: FC<{ session: HeaderSession }> = ({ session }) => {
  const signedIn = session.state === 'signed-in';
  const email = signedIn ? (session.email ?? 'Signed in') : '';
  return (
    <nav id="account-nav" class="account-nav" aria-label="Account" data-session={session.state}>
      {/* Back to the counter after signing in from its header. */}
      <a id="sign-in-link" class="button button-quiet button-small" href="/login?next=%2F" hidden={session.state !== 'signed-out'}>
        Sign in
      </a>
      <details id="account-menu" class="account-menu" hidden={!signedIn}>
        <summary class="button button-quiet button-small">
          <span class="visually-hidden">Signed in as </span>
          <span id="account-email" class="account-email">
            {email}
          </span>
        </summary>
        <div class="menu">
          <a id="menu-account" href="/dashboard">
            Account
          </a>
          <form method="post" action="/api/auth/logout">
            <button id="menu-sign-out" type="submit">
              Sign out
            </button>
          </form>
        </div>
      </details>
    </nav>
  );
};
