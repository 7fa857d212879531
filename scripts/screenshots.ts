/**
 * `npm run screenshots`: regenerates docs/screenshots/{desktop,mobile}.png (shown in the README)
 * from the real host and component in Chromium, after a few commands so the ledger has rows.
 * Needs a build (`npm run build`) and /usr/bin/chromium (or CHROMIUM=path).
 */
import { join } from 'node:path';
import { DESKTOP, launchChromium, openPage, PHONE } from '../test/support/browser.ts';
import { ROOT, startHost } from '../test/support/host-process.ts';
import { requireTool } from '../test/support/tools.ts';

const chromiumTool = requireTool('chromium');
if (!chromiumTool) throw new Error('chromium is needed for screenshots');

const host = await startHost({ args: ['--shutdown-grace-ms', '200'] });
const browser = await launchChromium(chromiumTool);
try {
  const post = (path: string, body?: unknown) =>
    fetch(`${host.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  for (const [path, amount] of [['/api/increment_count', 40], ['/api/decrement_count', 3], ['/api/increment_count', 1], ['/api/reset_count', undefined], ['/api/increment_count', 25], ['/api/increment_count', 17]] as const) {
    await post(path, amount === undefined ? undefined : { amount });
  }
  for (const [name, options] of [['desktop', DESKTOP], ['mobile', PHONE]] as const) {
    for (const scheme of ['light', 'dark'] as const) {
      const { page, problems, close } = await openPage(browser, host.url, { ...options, colorScheme: scheme });
      await page.waitForSelector('#status[data-status="live"]');
      const file = join(ROOT, 'docs', 'screenshots', scheme === 'light' ? `${name}.png` : `${name}-dark.png`);
      await page.screenshot({ path: file, fullPage: true });
      console.log(`${file}${problems.length ? `  (problems: ${problems.join('; ')})` : ''}`);
      await close();
    }
  }
} finally {
  await browser.close();
  await host.stop();
}
