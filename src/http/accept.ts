/**
 * Whether a request's `Accept` header prefers an HTML page to JSON (RFC 9110 §12.5.1): a browser's
 * navigation names `text/html` first, while API clients send `application/json`, `*\/*` or nothing.
 * `text/html` must be named; a wildcard alone never picks HTML, so a client that did not ask for
 * a page keeps the JSON error envelope.
 */
function qualities(accept: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (range === '') continue;
    const q = params.find((p) => p.startsWith('q='));
    const value = q === undefined ? 1 : Number(q.slice(2));
    out.set(range, Number.isFinite(value) ? value : 0);
  }
  return out;
}

export function prefersHtml(accept: string | null | undefined): boolean {
  if (!accept?.toLowerCase().includes('text/html')) return false;
  const q = qualities(accept);
  const html = q.get('text/html') ?? 0;
  const json = q.get('application/json') ?? q.get('application/*') ?? q.get('*/*') ?? 0;
  return html > 0 && html >= json && !(q.has('application/json') && json >= html);
}
