/**
 * Live updates in Chromium against the real host: a change made elsewhere (REST, another page)
 * shows within 1 s, pages never go back in time, and after the host restarts the page resumes
 * with Last-Event-ID. With realtime off the page works without a stream.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPage, shownCount, type WatchedPage } from '../support/browser.ts';
import { startHost, type HostProcess } from '../../harness/host-process.ts';
import { requireTool } from '../../harness/tools.ts';

const chromiumTool = requireTool('chromium');
const SHORT_GRACE = ['--shutdown-grace-ms', '300'];

interface View {
  count: number;
  last_sequence: number;
  latest_events: Array<{ revision: number }>;
}

const restIncrement = async (url: string, amount: number): Promise<View> => {
  const response = await fetch(`${url}/api/counter/increment`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ amount }) });
  expect(response.status).toBe(200);
  return (await response.json()) as View;
};

const countBecomes = (page: Page, count: number, timeout = 5_000) => page.waitForSelector(`#count[data-count="${count}"]`, { timeout });

/** Records every counter revision the page shows, from now on (a MutationObserver inside the page). */
async function recordSequences(page: Page): Promise<() => Promise<number[]>> {
  await page.evaluate(() => {
    const target = document.getElementById('revision')!;
    const seen: number[] = [];
    (window as unknown as { seenSequences: number[] }).seenSequences = seen;
    new MutationObserver(() => seen.push(Number(target.textContent))).observe(target, { childList: true, characterData: true, subtree: true });
  });
  return () => page.evaluate(() => (window as unknown as { seenSequences: number[] }).seenSequences);
}

describe.skipIf(!chromiumTool)('live updates in Chromium (realtime local)', () => {
  let host: HostProcess;
  let browser: Browser;
  const pages: WatchedPage[] = [];
  const open = async () => {
    const watched = await openPage(browser, host.url);
    pages.push(watched);
    await watched.page.waitForSelector('#status[data-status="live"]');
    return watched;
  };

  beforeAll(async () => {
    [host, browser] = await Promise.all([startHost({ args: SHORT_GRACE }), launchChromium(chromiumTool!)]);
  });
  afterAll(async () => {
    for (const watched of pages) await watched.close();
    await browser?.close();
    await host?.stop();
  });

  it('shows a REST increment made from outside within 1 s', async () => {
    const { page, problems } = await open();
    const before = await shownCount(page);
    for (const amount of [3, 11]) {
      const expected = before + (amount === 3 ? 3 : 14);
      let shownAt = 0;
      const shown = countBecomes(page, expected).then(() => (shownAt = performance.now()));
      const view = await restIncrement(host.url, amount);
      const committedAt = performance.now();
      expect(view.count).toBe(expected);
      await shown;
      expect(shownAt - committedAt).toBeLessThan(1_000);
    }
    expect(problems).toEqual([]);
  });

  it('keeps two pages in step both ways without reloading', async () => {
    const a = await open();
    const b = await open();
    const start = await shownCount(a.page);
    expect(await shownCount(b.page)).toBe(start);
    await a.page.click('#increment-one');
    await countBecomes(b.page, start + 1);
    await b.page.fill('#batch-amount', '40');
    await b.page.click('#batch-decrement');
    await countBecomes(a.page, start - 39);
    await b.page.click('#reset');
    await countBecomes(a.page, 0);
    expect(await a.page.locator('#ledger li').first().textContent()).toBe(await b.page.locator('#ledger li').first().textContent());
    expect([...a.problems, ...b.problems]).toEqual([]);
  });

  it('never shows an older state after a newer one while clicks and outside commands interleave', async () => {
    const a = await open();
    const b = await open();
    const seenA = await recordSequences(a.page);
    const seenB = await recordSequences(b.page);
    const start = await shownCount(a.page);
    const clicks = Array.from({ length: 8 }, (_, i) => (i % 2 ? a : b).page.click('#increment-one'));
    const rest = Array.from({ length: 8 }, () => restIncrement(host.url, 1));
    await Promise.all([...clicks, ...rest]);
    // A click resolves once dispatched; its command may still be on its way, so wait for the total.
    await Promise.all([countBecomes(a.page, start + 16), countBecomes(b.page, start + 16)]);
    const final = (await (await fetch(`${host.url}/api/get_counter_view`)).json()) as View;
    expect(final.count).toBe(start + 16);
    for (const seen of [await seenA(), await seenB()]) {
      expect(seen.length).toBeGreaterThan(0);
      for (let i = 1; i < seen.length; i++) expect(seen[i]!).toBeGreaterThan(seen[i - 1]!);
      expect(seen.at(-1)).toBe(final.latest_events[0]?.revision);
    }
  });

  it('reconnects after the host restarts, resuming with Last-Event-ID', async () => {
    const { page } = await open();
    const lastEventIds: Array<string | undefined> = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/counter/stream')) void request.allHeaders().then((h) => lastEventIds.push(h['last-event-id']));
    });
    const seen = await restIncrement(host.url, 2); // the page receives it as a frame with id = its sequence
    await countBecomes(page, seen.count);

    const { port, dataDir } = host;
    await host.stop();
    await page.waitForSelector('#status:not([data-status="live"])');
    host = await startHost({ port, dataDir, args: SHORT_GRACE });
    const after = await restIncrement(host.url, 5);
    await countBecomes(page, after.count, 10_000);
    await page.waitForSelector('#status[data-status="live"]', { timeout: 10_000 });
    expect(lastEventIds).toContain(String(seen.last_sequence));
  });
});

describe.skipIf(!chromiumTool)('counter page with realtime off', () => {
  let host: HostProcess;
  let browser: Browser;
  let watched: WatchedPage;

  beforeAll(async () => {
    [host, browser] = await Promise.all([startHost({ args: [...SHORT_GRACE, '--realtime', 'off'] }), launchChromium(chromiumTool!)]);
    watched = await openPage(browser, host.url);
  });
  afterAll(async () => {
    await watched?.close();
    await browser?.close();
    await host?.stop();
  });

  it('opens no stream, says ready, and still updates from its own clicks', async () => {
    const streams: string[] = [];
    watched.page.on('request', (request) => {
      if (request.url().includes('/api/counter/stream')) streams.push(request.url());
    });
    expect(await watched.page.getAttribute('#status', 'data-status')).toBe('ready');
    expect(await watched.page.locator('#realtime-note').textContent()).toBe('live updates off');
    await watched.page.click('#increment-one');
    await countBecomes(watched.page, 1);
    await watched.page.waitForSelector('#status[data-status="ready"]');
    expect(streams).toEqual([]);
    expect(watched.problems).toEqual([]);
  });
});
