/**
 * The CommonMark subset the OpenAPI document's descriptions use (OpenAPI 3.2 §4.8: descriptions are
 * CommonMark), rendered for /api/docs: paragraphs, `-` lists, pipe tables (GFM), and inline code,
 * `**strong**` and `[links](…)`. Only same-document and http(s) links become anchors; everything
 * else is text, escaped by JSX. The descriptions are the project's own, so a small renderer that
 * knows what they use beats a dependency (and it runs once, when the page is built).
 */
import type { Child } from 'hono/jsx';

const INLINE = /`([^`]+)`|\*\*([^*]+)\*\*|\[([^\]]+)\]\(([^)\s]+)\)/g;

function inline(text: string): Child[] {
  const out: Child[] = [];
  let last = 0;
  for (const match of text.matchAll(INLINE)) {
    out.push(text.slice(last, match.index));
    const [whole, code, strong, label, href] = match;
    if (code !== undefined) out.push(<code>{code}</code>);
    else if (strong !== undefined) out.push(<strong>{strong}</strong>);
    else if (label !== undefined && href !== undefined && /^(https?:\/\/|#|\/)/.test(href)) out.push(<a href={href}>{label}</a>);
    else out.push(whole);
    last = match.index + whole.length;
  }
  out.push(text.slice(last));
  return out;
}

const cells = (row: string): string[] =>
  row
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((cell) => cell.trim());

const isTableRule = (line: string | undefined): boolean => line !== undefined && /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/.test(line);

/** Block structure: runs of lines separated by blank lines, a table, or a list. */
export function Markdown(props: { text: string; class?: string }) {
  const lines = props.text.split('\n');
  const blocks: Child[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? '';
    if (line.trim() === '') {
      i++;
    } else if (line.trim().startsWith('|') && isTableRule(lines[i + 1])) {
      const head = cells(line);
      const rows: string[][] = [];
      for (i += 2; i < lines.length && (lines[i] ?? '').trim().startsWith('|'); i++) rows.push(cells(lines[i] ?? ''));
      blocks.push(
        <table>
          <thead>
            <tr>
              {head.map((cell) => (
                <th>{inline(cell)}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr>
                {row.map((cell) => (
                  <td>{inline(cell)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>,
      );
    } else if (/^\s*[-*] /.test(line)) {
      const items: string[] = [];
      for (; i < lines.length && /^\s*[-*] /.test(lines[i] ?? ''); i++) items.push((lines[i] ?? '').replace(/^\s*[-*] /, ''));
      blocks.push(
        <ul>
          {items.map((item) => (
            <li>{inline(item)}</li>
          ))}
        </ul>,
      );
    } else {
      const paragraph: string[] = [];
      for (
        ;
        i < lines.length && (lines[i] ?? '').trim() !== '' && !/^\s*[-*] /.test(lines[i] ?? '') && !((lines[i] ?? '').trim().startsWith('|') && isTableRule(lines[i + 1]));
        i++
      )
        paragraph.push(lines[i] ?? '');
      blocks.push(<p>{inline(paragraph.join(' '))}</p>);
    }
  }
  return <div class={props.class ?? 'markdown'}>{blocks}</div>;
}
