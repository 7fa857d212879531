/**
 * The setup the mail-and-page browser suites share: a real SMTP server (aiosmtpd), a host that
 * mails to it with `AUTH_PUBLIC_BASE_URL` on its own port, and Chromium, started together and
 * stopped together.
 */
import type { Browser } from 'playwright-core';
import { freePort, startHost, type HostProcess } from '../../harness/host-process.ts';
import type { Tool } from '../../harness/tools.ts';
import { launchChromium } from './browser.ts';
import { startSmtpSink, type SmtpSink } from './smtp-sink.ts';

export interface MailBrowserHost {
  sink: SmtpSink;
  host: HostProcess;
  browser: Browser;
  stop(): Promise<void>;
}

/** `env` adds to (or overrides) the host's mail settings; `base` is the host name in the public base URL. */
export async function startMailBrowserHost(
  python: Tool,
  chromium: Tool,
  options: { env?: Record<string, string>; base?: 'localhost' | '127.0.0.1' } = {},
): Promise<MailBrowserHost> {
  const port = await freePort();
  const sink = await startSmtpSink(python);
  let host: HostProcess, browser: Browser;
  try {
    [host, browser] = await Promise.all([
      startHost({
        port,
        args: ['--shutdown-grace-ms', '300'],
        env: { SMTP_URL: sink.url, AUTH_PUBLIC_BASE_URL: `http://${options.base ?? '127.0.0.1'}:${port}`, ...options.env },
      }),
      launchChromium(chromium),
    ]);
  } catch (error) {
    await sink.stop();
    throw error;
  }
  return {
    sink,
    host,
    browser,
    async stop() {
      await browser.close();
      await host.stop();
      await sink.stop();
    },
  };
}
