/** The shell of the auth pages: plain HTML, a little inline CSS, no script. */
import type { Child } from 'hono/jsx';

const STYLE = `
body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}
form{display:grid;gap:.5rem;margin:1rem 0;padding:1rem;border:1px solid #ccc;border-radius:.5rem}
input{padding:.4rem;font-size:1rem}button,.button{padding:.5rem 1rem;font-size:1rem;cursor:pointer}
.error{color:#a00;border:1px solid #a00;padding:.5rem;border-radius:.25rem}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}dt{font-weight:600}`;

export function Layout(props: { title: string; children: Child }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{props.title}</title>
        <style>{STYLE}</style>
      </head>
      <body>{props.children}</body>
    </html>
  );
}
