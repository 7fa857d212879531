/**
 * A server and Chromium started together and stopped together, for the browser suites: when
 * either fails to start, the one that did is stopped before the error goes on.
 */
import type { Browser } from 'playwright-core';
import type { Tool } from '../../harness/tools.ts';
import { launchChromium } from './browser.ts';

export type WithChromium<S> = S & { browser: Browser };

export async function withChromium<S extends { stop(): Promise<void> }>(chromium: Tool, starting: Promise<S>): Promise<WithChromium<S>> {
  const [server, browser] = await Promise.allSettled([starting, launchChromium(chromium)]);
  if (server.status === 'rejected' || browser.status === 'rejected') {
    if (server.status === 'fulfilled') await server.value.stop();
    if (browser.status === 'fulfilled') await browser.value.close();
    throw server.status === 'rejected' ? server.reason : (browser as PromiseRejectedResult).reason;
  }
  return {
    ...server.value,
    browser: browser.value,
    async stop() {
      await browser.value.close();
      await server.value.stop();
    },
  };
}
