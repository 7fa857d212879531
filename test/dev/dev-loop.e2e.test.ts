/**
 * `npm run dev` as a developer uses it, in a copy of the project (harness/dev-process.ts): a saved
 * handler is answered after a rebuild and the open page reloads; a broken build shows its error in
 * the terminal and on the page while the last good build keeps answering; the fix clears it; a
 * change in host/ restarts the host without a build; Ctrl-C stops everything. Timings are for
 * bench/dev-loop.ts: the bounds here only keep a stuck loop from hanging the suite.
 */
import { appendFileSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyProject, type DevProcess, editHealthHandler, type HealthHandler, healthHandler, processesUnder, startDev } from '../../harness/dev-process.ts';
import { openSse, type SseClient } from '../../harness/sse.ts';
import { requireTool } from '../../harness/tools.ts';
import { launchChromium, openPage, type WatchedPage } from '../support/browser.ts';

const chromium = requireTool('chromium');
/** A rebuild is 10-30 s on the loaded 2-core machine; a stuck one must still end the test. */
const REBUILD_MS = 240_000;

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = REBUILD_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(!chromium)('npm run dev', () => {
  let root: string;
  let dev: DevProcess;
  let browser: Browser;
  let watched: WatchedPage;
  let page: Page;
  let events: SseClient;
  let handler: HealthHandler;
  const health = async () => (await (await fetch(`${dev.url}/api/health`)).json()) as { status: string; edit?: string };
  const edit = (token: string) => editHealthHandler(root, handler, token);

  beforeAll(async () => {
    root = copyProject();
    handler = healthHandler(root);
    [dev, browser] = await Promise.all([startDev(root), launchChromium(chromium!)]);
    events = await openSse(`${dev.url}/__dev/events`);
    watched = await openPage(browser, `${dev.url}/`);
    page = watched.page;
  }, REBUILD_MS);

  afterAll(async () => {
    try {
      events?.close();
      await watched?.close();
      await browser?.close();
      if (dev) {
        await dev.stop();
        expect(dev.output).toContain('dev: stopping');
        // Ctrl-C ends the dev runner, its build process, the loaded host process and the host.
        await until('every process of the dev loop gone', async () => (processesUnder(root).length === 0 ? true : undefined), 20_000);
      }
    } finally {
      if (root) rmSync(root, { recursive: true, force: true });
    }
  }, 60_000);

  it('serves the component; only what passes through it carries the dev script', async () => {
    expect(await health()).toEqual({ status: 'ok' });
    expect(await (await fetch(`${dev.url}/`)).text()).toContain('/__dev/client.js');
    const hostPort = /behind it on port (\d+)/.exec((await dev.waitForLine(/^dev: the host serves /)).line)?.[1];
    const direct = await (await fetch(`http://127.0.0.1:${hostPort}/`)).text();
    expect(direct).toContain('</html>');
    expect(direct).not.toContain('__dev');
    expect(readFileSync(join(root, 'build', 'hosted', 'bundle.js'), 'utf8')).not.toContain('__dev');
  });

  it(
    'answers a saved handler after the rebuild and reloads the open page',
    async () => {
      const from = dev.output.length;
      await page.evaluate(() => Object.assign(window, { beforeTheEdit: true }));
      edit('first');
      await until('the edited answer', async () => ((await health()).edit === 'first' ? true : undefined));
      await dev.waitForLine(/^dev: serving [\d.]+ s after the save \(build [\d.]+ s, restart [\d.]+ s\)$/, from);
      await events.waitFor((frame) => frame.event === 'reload', 10_000);
      await page.waitForFunction(() => !('beforeTheEdit' in window), undefined, { timeout: 30_000 });
      await page.waitForSelector('html[data-ready="true"]');
    },
    REBUILD_MS,
  );

  it(
    'shows a failed build in the terminal and on the page; the last good build keeps answering',
    async () => {
      const from = dev.output.length;
      appendFileSync(join(root, handler.path), '\nexport const broken = ;\n');
      const failed = await events.waitFor((frame) => frame.event === 'status' && frame.data?.includes('"failed"') === true, 60_000);
      const at = new RegExp(`${handler.path.replaceAll('.', '\\.')}:\\d+:\\d+`);
      expect(JSON.parse(failed.data!).message).toMatch(new RegExp(`${at.source}: ERROR`));
      await dev.waitForLine(/^dev: the build failed after [\d.]+ s; the last good build keeps serving/, from);
      expect(dev.output.slice(from).join('\n')).toMatch(at);
      expect(await health()).toEqual({ status: 'ok', edit: 'first' });
      const overlay = page.locator('#dev-build-error');
      await overlay.waitFor({ timeout: 30_000 });
      expect(await overlay.textContent()).toMatch(new RegExp(`Build failed[^]*${at.source}: ERROR`));
    },
    REBUILD_MS,
  );

  it(
    'serves the fix, clears the error and reloads the page',
    async () => {
      const reloads = events.frames.filter((frame) => frame.event === 'reload').length;
      edit('fixed');
      await until('the fixed answer', async () => ((await health()).edit === 'fixed' ? true : undefined));
      await events.waitFor(() => events.frames.filter((frame) => frame.event === 'reload').length > reloads, 10_000);
      await page.locator('#dev-build-error').waitFor({ state: 'detached', timeout: 30_000 });
      await page.waitForSelector('html[data-ready="true"]');
    },
    REBUILD_MS,
  );

  it(
    'restarts the host for a change in host/, without a build',
    async () => {
      const from = dev.output.length;
      appendFileSync(join(root, 'host', 'log.ts'), '\n// saved by the dev loop test\n');
      const served = await dev.waitForLine(/^dev: serving [\d.]+ s after the save \(build 0\.0 s/, from);
      expect(dev.output.slice(from, served.index).filter((line) => line.includes('hosted: bundle'))).toEqual([]);
      expect(await health()).toEqual({ status: 'ok', edit: 'fixed' });
      // Streams cut by a reload or a restart are not failures of the page.
      expect(watched.problems.filter((problem) => !/\/api\/counter\/stream|\/__dev\/events/.test(problem))).toEqual([]);
    },
    REBUILD_MS,
  );
});
