import { describe, expect, it } from 'vitest';
import { Markdown } from './markdown.tsx';

const html = (text: string) => String(Markdown({ text }));

describe('Markdown()', () => {
  it('renders a pipe table, not its pipes', () => {
    const out = html('Codes:\n\n| status | code |\n|---|---|\n| 404 | `not_found` |');
    expect(out).toContain('<table><thead><tr><th>status</th><th>code</th></tr></thead><tbody><tr><td>404</td><td><code>not_found</code></td></tr></tbody></table>');
    expect(out).not.toContain('|');
  });
  it('renders inline code, strong text and safe links, and escapes the rest', () => {
    expect(html('Use `npm run x` and **this** <b>[docs](/api/docs) [bad](javascript:alert(1))')).toBe(
      '<div class="markdown"><p>Use <code>npm run x</code> and <strong>this</strong> &lt;b&gt;<a href="/api/docs">docs</a> [bad](javascript:alert(1))</p></div>',
    );
  });
  it('renders a list', () => expect(html('- one\n- two')).toBe('<div class="markdown"><ul><li>one</li><li>two</li></ul></div>'));
});
