/**
 * The script the dev runner adds to every HTML page it passes on (`/__dev/client.js`; never part
 * of the product's build): it follows `/__dev/events`, reloads the page when a new build serves,
 * and shows a failed build's error over the page, which still runs the last good build. The
 * pages' CSP (`script-src 'self'`, `connect-src 'self'`) allows it: it comes from the page's own
 * origin. Styles are set through the CSSOM, which `style-src 'self'` does not govern.
 */

/** Runs in the browser; served as its source text (type annotations are stripped to spaces by Node). */
export function devPageClient(): void {
  const OVERLAY_ID = 'dev-build-error';
  const script = document.currentScript as HTMLScriptElement | null;
  const param = script === null ? null : new URL(script.src).searchParams.get('generation');
  const served = param === null ? undefined : Number(param);

  const hide = (): void => document.getElementById(OVERLAY_ID)?.remove();
  const show = (message: string): void => {
    hide();
    const box = document.createElement('div');
    box.id = OVERLAY_ID;
    box.setAttribute('role', 'alert');
    const title = document.createElement('strong');
    title.textContent = 'Build failed: this page runs the last good build. Fix the error and save; the page reloads.';
    const text = document.createElement('pre');
    text.textContent = message;
    box.append(title, text);
    const style = { position: 'fixed', inset: '0 0 auto 0', maxHeight: '70vh', overflow: 'auto', zIndex: '2147483647', padding: '1rem' };
    Object.assign(box.style, style, { background: '#2b0b0b', color: '#ffd9d9', font: '14px/1.4 ui-monospace, monospace', borderBottom: '3px solid #ff5c5c' });
    Object.assign(text.style, { whiteSpace: 'pre-wrap', margin: '0.75rem 0 0' });
    document.body.append(box);
  };

  const events = new EventSource('/__dev/events');
  // Once: a second reload would cut the first one's navigation short.
  let reloading = false;
  const reload = (): void => {
    if (reloading) return;
    reloading = true;
    events.close();
    location.reload();
  };
  events.addEventListener('reload', reload);
  events.addEventListener('status', (event) => {
    const status = JSON.parse((event as MessageEvent<string>).data) as { state: string; generation: number; message?: string };
    if (status.state === 'failed') show(status.message ?? 'unknown error');
    else if (status.state === 'ok' && served !== undefined && status.generation !== served) {
      // Once per generation: a page the browser took from its cache would name the old one again.
      const key = 'dev-reloaded-for-generation';
      if (sessionStorage.getItem(key) === String(status.generation)) return hide();
      sessionStorage.setItem(key, String(status.generation));
      reload();
    } else if (status.state === 'ok') hide();
  });
}

export const DEV_CLIENT_SCRIPT = `(${devPageClient.toString()})();\n`;
